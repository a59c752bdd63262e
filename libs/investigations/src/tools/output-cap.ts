/** What the cap kept of one list (or long string), summed over every list at the same place in the output. */
export interface TruncationNote {
  /** Where, with `[]` for "every element", e.g. `series` or `series[].values`; `$` is the output itself. */
  path: string;
  kept: number;
  of: number;
  unit: 'items' | 'characters';
}

export interface CappedOutput {
  output: unknown;
  truncated: boolean;
  notes: TruncationNote[];
}

/** Time series are thinned to this many points before whole series are dropped. */
const MIN_POINTS = 10;
/** Strings are cut only past this length, and never below it. */
const LONG_STRING = 256;
const MAX_ROUNDS = 1000;

type Holder = Record<string, unknown> | unknown[];
interface Slot {
  holder: Holder;
  key: string | number;
  path: string;
  group: string;
}
interface Group {
  name: string;
  slots: Slot[];
  bytes: number;
  tuples: boolean;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? 'null');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const read = (slot: Slot) => (slot.holder as Record<string | number, unknown>)[slot.key];
const write = (slot: Slot, value: unknown) => {
  (slot.holder as Record<string | number, unknown>)[slot.key] = value;
};
const displayPath = (path: string) => (path === '$' ? '$' : path.replace(/^\$\.?/, ''));

/**
 * Lists reachable from object properties (trimmable) and long strings. Arrays inside arrays are
 * tuples (`[time, value]`) and are never shortened, only looked into.
 */
function walk(value: unknown, path: string, group: string, lists: Slot[], strings: Slot[], holder: Holder, key: string | number, inTuple: boolean): void {
  if (typeof value === 'string') {
    if (value.length > LONG_STRING) strings.push({ holder, key, path, group });
  } else if (Array.isArray(value)) {
    if (!inTuple) lists.push({ holder, key, path, group });
    value.forEach((item, i) => walk(item, `${path}[${i}]`, `${group}[]`, lists, strings, value, i, true));
  } else if (isObject(value)) {
    for (const [k, item] of Object.entries(value)) walk(item, `${path}.${k}`, `${group}.${k}`, lists, strings, value, k, false);
  }
}

function groupsOf(lists: Slot[]): Group[] {
  const groups = new Map<string, Group>();
  for (const slot of lists) {
    const list = read(slot) as unknown[];
    const group = groups.get(slot.group) ?? { name: slot.group, slots: [], bytes: 0, tuples: true };
    group.slots.push(slot);
    group.bytes += bytes(list);
    group.tuples &&= list.length > 0 && list.every(Array.isArray);
    groups.set(slot.group, group);
  }
  return [...groups.values()];
}

/** `keep` items spread evenly from first to last (for a time series: its shape, over the whole range). */
function thin<T>(list: T[], keep: number): T[] {
  if (keep === 1) return [list[list.length - 1]];
  return Array.from({ length: keep }, (_, i) => list[Math.round((i * (list.length - 1)) / (keep - 1))]);
}

/**
 * Cuts a JSON value until it serializes to at most `capBytes` bytes, keeping it valid JSON of the
 * same shape: time series (lists of tuples) are first thinned evenly down to MIN_POINTS points,
 * then other lists lose their last items (fewer series, targets, alerts), then anything left long
 * is cut, the largest first. The result carries `truncation`: what was kept of how many.
 */
export function capOutput(output: unknown, capBytes: number): CappedOutput {
  const root: Record<string, unknown> = { $: JSON.parse(JSON.stringify(output ?? null)) };
  const size0 = bytes(root.$);
  if (size0 <= capBytes) return { output: root.$, truncated: false, notes: [] };

  const original = new Map<string, { group: string; of: number; unit: TruncationNote['unit'] }>();
  const remember = (slot: Slot, unit: TruncationNote['unit']) => {
    if (!original.has(slot.path)) original.set(slot.path, { group: slot.group, of: (read(slot) as string | unknown[]).length, unit });
  };
  const notes = (): TruncationNote[] => {
    const lists: Slot[] = [];
    const strings: Slot[] = [];
    const current = new Map<string, number>();
    walk(root.$, '$', '$', lists, strings, root, '$', false);
    for (const slot of [...lists, ...strings]) current.set(slot.path, (read(slot) as string | unknown[]).length);
    const sums = new Map<string, TruncationNote>();
    for (const [path, { group, of, unit }] of original) {
      const kept = current.get(path);
      if (kept === undefined) continue;
      const note = sums.get(group) ?? { path: displayPath(group), kept: 0, of: 0, unit };
      note.kept += kept;
      note.of += of;
      sums.set(group, note);
    }
    return [...sums.values()].filter((note) => note.kept < note.of);
  };
  const attach = (value: unknown, list: TruncationNote[]) => (isObject(value) ? { ...value, truncation: list } : { value, truncation: list });

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const candidate = attach(root.$, notes());
    const size = bytes(candidate);
    if (size <= capBytes) return { output: candidate, truncated: true, notes: candidate.truncation };
    const excess = size - capBytes;
    const lists: Slot[] = [];
    const strings: Slot[] = [];
    walk(root.$, '$', '$', lists, strings, root, '$', false);
    const groups = groupsOf(lists);
    const longer = (floor: number) => (g: Group) => g.slots.some((slot) => (read(slot) as unknown[]).length > floor);
    const phases: Array<[Group[], number]> = [
      [groups.filter((g) => g.tuples).filter(longer(MIN_POINTS)), MIN_POINTS],
      [groups.filter((g) => !g.tuples).filter(longer(1)), 1],
      [groups.filter(longer(1)), 1],
    ];
    const phase = phases.find(([candidates]) => candidates.length > 0);
    if (phase) {
      const [candidates, floor] = phase;
      const group = candidates.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      const fraction = Math.max(0, 1 - excess / group.bytes);
      for (const slot of group.slots) {
        const list = read(slot) as unknown[];
        remember(slot, 'items');
        if (list.length <= floor) continue;
        const keep = Math.max(floor, Math.min(list.length - 1, Math.floor(list.length * fraction)));
        write(slot, group.tuples ? thin(list, keep) : list.slice(0, keep));
      }
      continue;
    }
    const longest = strings
      .filter((slot) => (read(slot) as string).length > LONG_STRING)
      .sort((a, b) => (read(b) as string).length - (read(a) as string).length)[0];
    if (!longest) break;
    const text = read(longest) as string;
    remember(longest, 'characters');
    write(longest, `${text.slice(0, Math.max(LONG_STRING, text.length - excess - 1))}…`);
  }
  const fallback = {
    omitted: `The output (${size0} bytes of JSON) could not be cut to ${capBytes} bytes`,
    truncation: [{ path: '$', kept: 0, of: 1, unit: 'items' as const }],
  };
  return { output: fallback, truncated: true, notes: fallback.truncation };
}
