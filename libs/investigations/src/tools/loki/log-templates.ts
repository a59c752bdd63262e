/**
 * Log lines grouped into templates, Drain-style (He et al., "Drain: An Online Log Parsing Approach
 * with Fixed Depth Tree", ICWS 2017): the values that vary from line to line are masked first
 * (ids, addresses, numbers, times, durations), then lines are routed through a tree by their
 * length and first tokens to a few candidate templates, and joined to the most similar one when
 * enough of their tokens agree; the tokens on which they differ become `<*>`.
 */

/** Masks applied to a line before it is split into tokens, in this order (a UUID before its hex parts). */
const MASKS: ReadonlyArray<[RegExp, string]> = [
  [/\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})?(?![\w:])/g, '<time>'],
  [/\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*\](?::\d{1,5})?/g, '<ip>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}\b/g, '<ip>:<port>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '<ip>'],
  [/(?<![\w:])(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{1,4}(?![\w:])|(?<![\w:])(?:[0-9a-fA-F]{1,4}:)*:(?::?[0-9a-fA-F]{1,4})+(?![\w:])/g, '<ip>'],
  [/\b([A-Za-z][\w.-]*):\d{2,5}\b/g, '$1:<port>'],
  [/\b0[xX][0-9a-fA-F]+\b/g, '<hex>'],
  [/\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b/g, '<hex>'],
  [/(?<![\w.])\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))*(?![\w.])/g, '<duration>'],
  [/(?<![\w.])\d+(?:\.\d+)?(?:[KMGTP]i?B|B)(?![\w.])/g, '<size>'],
  // A quoted single token (a name, key or path) is a value; quoted words with spaces are a message and stay.
  [/"[^"\s]+"/g, '"<*>"'],
  [/'[^'\s]+'/g, "'<*>'"],
  [/(?<![\w.<])[-+]?\d+(?:\.\d+)?(?![\w.>])/g, '<num>'],
];

export const WILDCARD = '<*>';

/** A line with the values that vary masked, e.g. `dial tcp <ip>:<port>: connect: connection refused`. */
export function maskLine(line: string): string {
  let masked = line;
  for (const [pattern, replacement] of MASKS) masked = masked.replace(pattern, replacement);
  return masked;
}

export interface Template {
  id: number;
  tokens: string[];
}

interface Node {
  children: Map<string, Node>;
  templates: Template[];
}

export interface MinerOptions {
  /** Tokens that route a line through the tree below its length (Drain's depth - 2). */
  prefixTokens?: number;
  /** The share of a template's tokens a line must agree with to join it. */
  similarity?: number;
  /** Children of a tree node before further tokens share one wildcard child. */
  maxChildren?: number;
  /** Templates kept at most; past it, lines join their most similar template whatever the similarity. */
  maxTemplates?: number;
  /** Tokens of a line considered at most (the rest is one token). */
  maxTokens?: number;
}

const hasDigit = (token: string) => /\d/.test(token);

/** A Drain tree: `add` a line, get the template it joined (the template may change as lines join it). */
export class TemplateMiner {
  private readonly root: Node = { children: new Map(), templates: [] };
  private readonly all: Template[] = [];
  private readonly prefixTokens: number;
  private readonly similarity: number;
  private readonly maxChildren: number;
  private readonly maxTemplates: number;
  private readonly maxTokens: number;

  constructor(options: MinerOptions = {}) {
    this.prefixTokens = options.prefixTokens ?? 2;
    this.similarity = options.similarity ?? 0.6;
    this.maxChildren = options.maxChildren ?? 100;
    this.maxTemplates = options.maxTemplates ?? 1000;
    this.maxTokens = options.maxTokens ?? 80;
  }

  get templates(): readonly Template[] {
    return this.all;
  }

  add(line: string): Template {
    const tokens = this.tokens(maskLine(line));
    const leaf = this.leaf(tokens);
    const best = this.closest(leaf.templates.length ? leaf.templates : this.all.length >= this.maxTemplates ? this.all : [], tokens);
    if (best && (best.score >= this.similarity || this.all.length >= this.maxTemplates)) {
      best.template.tokens = best.template.tokens.map((token, i) => (token === tokens[i] ? token : WILDCARD));
      return best.template;
    }
    const template: Template = { id: this.all.length, tokens };
    leaf.templates.push(template);
    this.all.push(template);
    return template;
  }

  private tokens(masked: string): string[] {
    const tokens = masked.split(/\s+/).filter(Boolean);
    if (tokens.length <= this.maxTokens) return tokens;
    return [...tokens.slice(0, this.maxTokens - 1), tokens.slice(this.maxTokens - 1).join(' ')];
  }

  /** The tree's leaf for a line: by its length, then its first tokens (a token with a digit, or one past maxChildren, goes to `<*>`). */
  private leaf(tokens: string[]): Node {
    let node = this.child(this.root, String(tokens.length));
    for (const token of tokens.slice(0, this.prefixTokens)) {
      const key = hasDigit(token) ? WILDCARD : token;
      node = node.children.has(key) || node.children.size < this.maxChildren ? this.child(node, key) : this.child(node, WILDCARD);
    }
    return node;
  }

  private child(node: Node, key: string): Node {
    let next = node.children.get(key);
    if (!next) {
      next = { children: new Map(), templates: [] };
      node.children.set(key, next);
    }
    return next;
  }

  /** The template most like the line (the share of equal tokens, a tie to the one with fewer wildcards), among those of its length. */
  private closest(candidates: readonly Template[], tokens: string[]): { template: Template; score: number } | undefined {
    let best: { template: Template; score: number; wild: number } | undefined;
    for (const template of candidates) {
      if (template.tokens.length !== tokens.length) continue;
      let same = 0;
      let wild = 0;
      template.tokens.forEach((token, i) => {
        if (token === WILDCARD) wild += 1;
        else if (token === tokens[i]) same += 1;
      });
      const score = tokens.length ? same / tokens.length : 1;
      if (!best || score > best.score || (score === best.score && wild < best.wild)) best = { template, score, wild };
    }
    return best;
  }
}

/** A template as text: its tokens joined by spaces. */
export function templateText(template: Template): string {
  return template.tokens.join(' ');
}
