/** Deepest JSON nesting accepted (decisions §4): the top-level value is level 1. */
export const MAX_JSON_DEPTH = 64;

/** NUL or a lone surrogate: text PostgreSQL cannot store and hashing cannot tell apart. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_TEXT_ALL = new RegExp(UNSAFE_TEXT.source, 'g');

/** True when `text` holds NUL or a lone surrogate. */
export function isUnsafeText(text: string): boolean {
  return UNSAFE_TEXT.test(text);
}

/** `text` with every NUL and lone surrogate replaced by U+FFFD, the rest unchanged. */
export function replaceUnsafeText(text: string): string {
  return text.replace(UNSAFE_TEXT_ALL, '\ufffd');
}

/** What makes a parsed value unacceptable, with the path of the field where it was found. */
export interface InputFault {
  path: string;
  problem: 'unsafe_text' | 'too_deep';
}

function child(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) && key.length <= 64;
  const shown = plain ? key : JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
  if (plain) return parent ? `${parent}.${shown}` : shown;
  return `${parent}[${shown}]`;
}

/**
 * The first fault in a parsed JSON value (or a query object): a string (key or value) holding NUL
 * or a lone surrogate, or nesting deeper than `maxDepth`. The walk never goes deeper than
 * `maxDepth + 1`, so a hostile value cannot exhaust the stack here or, once refused, in validation.
 */
export function findInputFault(value: unknown, root = 'body', maxDepth = MAX_JSON_DEPTH): InputFault | null {
  const walk = (node: unknown, path: string, depth: number): InputFault | null => {
    if (typeof node === 'string') return isUnsafeText(node) ? { path, problem: 'unsafe_text' } : null;
    if (typeof node !== 'object' || node === null) return null;
    if (depth > maxDepth) return { path, problem: 'too_deep' };
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const fault = walk(node[i], child(path, i), depth + 1);
        if (fault) return fault;
      }
      return null;
    }
    for (const [key, item] of Object.entries(node as Record<string, unknown>)) {
      const at = child(path, key);
      if (isUnsafeText(key)) return { path: at, problem: 'unsafe_text' };
      const fault = walk(item, at, depth + 1);
      if (fault) return fault;
    }
    return null;
  };
  return walk(value, root, 1);
}

/** The 400 message for a fault, naming the field. */
export function describeInputFault(fault: InputFault): string {
  return fault.problem === 'too_deep'
    ? `Invalid input: ${fault.path} is nested deeper than ${MAX_JSON_DEPTH} levels`
    : `Invalid input: ${fault.path} must be valid Unicode text without NUL characters or lone surrogates`;
}

/** True when a parsed JSON value nests objects and arrays deeper than `maxDepth`; never walks further than that. */
export function isNestedDeeperThan(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const walk = (node: unknown, depth: number): boolean => {
    if (typeof node !== 'object' || node === null) return false;
    if (depth > maxDepth) return true;
    return (Array.isArray(node) ? node : Object.values(node as Record<string, unknown>)).some((item) => walk(item, depth + 1));
  };
  return walk(value, 1);
}
