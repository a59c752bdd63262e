import { Timestamp } from '@svc/platform';
import { mentions } from '../explainers/labels';
import type { CallEdge, CallGraph, CallPair } from './call-graph';

/** A call loses time between its ends when the caller waits this much longer than the callee works on it... */
const MIN_LOST_SECONDS = 0.1;
/** ...and that is most of the caller's wait. */
const MIN_LOST_SHARE = 0.5;
/** A loss that already held this long before the onset, without a break, is the path's usual state, not a change. */
const CHRONIC_MICROS = 10n * 60_000_000n;
/** Samples further apart than this are not one stretch (the series was not read in between). */
const CONTIGUOUS_MICROS = 90_000_000n;
/** Samples this close before the onset read the minute that runs into it. */
const AT_ONSET_MICROS = 60_000_000n;
/** The rate behind a sample spans the minute before it: a loss seen at a sample began up to then. */
const RATE_SPAN_MICROS = 60_000_000n;
/** A loss this many times the call's usual one has grown with the caller's trouble. */
const GROWN_LOSS = 3;
/** A sample reads the calls after the onset when its rate window holds this much of them. */
const AFTER_ONSET_MICROS = 30_000_000n;
/**
 * When no sample of the graph reaches the onset, its last one stands for it if it is this close
 * before: traces are written in stretches and arrive late, and an alert raised by a person comes
 * minutes after what made them raise it.
 */
const LAST_READ_MICROS = 3n * 60_000_000n;

/** One caller's calls to the callee: its mean wait and the callee's mean handling, after the onset. */
export interface LosingCall {
  caller: string;
  waited: number;
  handled: number;
}

/**
 * Where the calls that the alerting service depends on lose their time: a callee whose callers
 * wait far longer than it takes to answer them, from the onset on and not before. The time goes
 * between the callers and the callee (the callee's network, its proxy, a queue in front of it),
 * not in the callee's handling; the services that call it on the way from the alerting service
 * wait on it, as a consequence.
 */
export interface LostTime {
  callee: string;
  /** Its callers whose calls lose the time, the most affected first. */
  losing: LosingCall[];
  /** How many of its callers were read after the onset. */
  callers: number;
  /** Median seconds lost per call among the losing callers. */
  lost: number;
  /** When the loss is first seen (the start of the rate window of the first sample that shows it). */
  since: Timestamp;
  /** The services between the alerting service and the callee (itself included) that wait on it. */
  dependents: string[];
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** An edge read after the onset: its callers' mean wait and its handling there, and where its loss began. */
interface EdgeAfter {
  edge: CallEdge;
  waited: number;
  handled: number;
  /** The first sample of the losing stretch that runs into the onset, without a break. */
  from: bigint;
  /** The largest loss of a sample from the onset on, where it was most of that sample's wait. */
  peak: number;
  /** The median loss of the samples before the onset; null when none was read. */
  usual: number | null;
}

/** The times at which both ends of an edge were read, in order. */
const bothRead = (edge: CallEdge): bigint[] => [...edge.client.keys()].filter((t) => edge.server.has(t)).sort((a, b) => (a < b ? -1 : 1));

/**
 * The edge's means from the onset on (the samples whose rate window holds AFTER_ONSET_MICROS of
 * calls after it), and the losing stretch that runs into them; null when it was not read then.
 * When the graph was read from the onset on (`readAfterOnset`), an edge without such a sample had
 * no calls then; otherwise the sample of the minute that runs into the onset stands for it.
 */
function readAfter(edge: CallEdge, onset: bigint, readAfterOnset: boolean): EdgeAfter | null {
  const times = bothRead(edge);
  const since = times.findIndex((t) => t >= onset + AFTER_ONSET_MICROS);
  const first = since >= 0 || readAfterOnset ? since : times.findIndex((t) => t >= onset - AT_ONSET_MICROS);
  if (first < 0) return null;
  const after = times.slice(first);
  const waited = mean(after.map((t) => edge.client.get(t)!));
  const handled = mean(after.map((t) => edge.server.get(t)!));
  let i = first;
  const losesAt = (t: bigint): boolean => loses(edge.client.get(t)!, edge.server.get(t)!);
  while (i > 0 && times[i] - times[i - 1] <= CONTIGUOUS_MICROS && losesAt(times[i - 1])) i--;
  // From the first losing sample after the onset when the stretch does not reach back before it.
  const from = i < first ? times[i] : (after.find(losesAt) ?? after[0]);
  const peak = Math.max(
    0,
    ...after.map((t) => edge.client.get(t)! - edge.server.get(t)!).filter((lost, i) => lost >= MIN_LOST_SHARE * edge.client.get(after[i])!),
  );
  const before = times.filter((t) => t < onset).map((t) => edge.client.get(t)! - edge.server.get(t)!);
  return { edge, waited, handled, from, peak, usual: before.length ? median(before) : null };
}

/** Everything reachable from `starts` through `next`, the starts included. */
function reachable(starts: string[], next: (s: string) => string[]): Set<string> {
  const seen = new Set(starts);
  const queue = [...starts];
  while (queue.length) {
    for (const n of next(queue.shift()!)) {
      if (seen.has(n)) continue;
      seen.add(n);
      queue.push(n);
    }
  }
  return seen;
}

const loses = (waited: number, handled: number): boolean => waited - handled >= MIN_LOST_SECONDS && waited - handled >= MIN_LOST_SHARE * waited;

/** Everything reachable from the alerting services through `pairs`, calling (`callees`) or called (`callers`), the services themselves left out. */
function related(pairs: ReadonlyArray<CallPair>, alerting: string[], toward: 'callees' | 'callers'): string[] {
  const next = new Map<string, string[]>();
  for (const e of pairs) {
    const [from, to] = toward === 'callees' ? [e.caller, e.callee] : [e.callee, e.caller];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const starts = [...next.keys()].filter((s) => alerting.some((a) => mentions(s, a)));
  return [...reachable(starts, (s) => next.get(s) ?? [])].filter((s) => !starts.includes(s)).sort();
}

/** Everything the alerting services call, directly or not, through `pairs` (the services themselves left out). */
export const dependenciesOf = (pairs: ReadonlyArray<CallPair>, alerting: string[]): string[] => related(pairs, alerting, 'callees');

/** Everything that calls the alerting services, directly or not, through `pairs` (the services themselves left out): what waits on them. */
export const dependentsOf = (pairs: ReadonlyArray<CallPair>, alerting: string[]): string[] => related(pairs, alerting, 'callers');

/**
 * The time the graph is read at: the onset, or the graph's last sample when none reaches within a
 * minute of the onset and the last is at most LAST_READ_MICROS before it (see LAST_READ_MICROS).
 */
function readAt(graph: CallGraph, onset: bigint): bigint {
  const last = graph.edges.flatMap(bothRead).reduce((a, b) => (a > b ? a : b), 0n);
  return last < onset - AT_ONSET_MICROS && last >= onset - LAST_READ_MICROS ? last : onset;
}

/**
 * Walks the call graph from the services the alert names to everything they call, directly or
 * not, and returns the callee whose calls lose time between the ends after the onset: for most of
 * its callers, in a stretch that began after CHRONIC_MICROS before the onset. The largest loss
 * first. A callee whose calls lose time from one caller only, when that caller's calls to other
 * callees lose time too, is not where the time goes: the caller is (its own CPU or client, timing
 * its calls longer than they took), and that is for the changes on the caller to show. Null when no
 * call loses time.
 *
 * With `fromEntries`, an alerting service the graph does not show (an entry point nothing traces:
 * a web front, a load balancer, the load generator) stands in front of the graph's entries (the
 * services no traced service calls), so the walk starts from them; a loss then counts only when
 * at least two callers show it (a delay in front of the callee slows every caller alike).
 */
export function whereTimeIsLost(graph: CallGraph, alerting: string[], onset: Timestamp, options: { fromEntries?: boolean } = {}): LostTime | null {
  const calls = new Map<string, CallEdge[]>();
  const callersOf = new Map<string, CallEdge[]>();
  for (const e of graph.edges) {
    calls.set(e.caller, [...(calls.get(e.caller) ?? []), e]);
    callersOf.set(e.callee, [...(callersOf.get(e.callee) ?? []), e]);
  }
  const services = [...new Set(graph.edges.flatMap((e) => [e.caller, e.callee]))];
  const named = services.filter((s) => alerting.some((a) => mentions(s, a)));
  const fromEntries = !named.length && !!options.fromEntries;
  const starts = fromEntries ? services.filter((s) => !callersOf.has(s)) : named;
  const reached = reachable(starts, (s) => (calls.get(s) ?? []).map((e) => e.callee));

  const at = readAt(graph, onset.epochMicros);
  const losingEdge = (x: EdgeAfter): boolean => loses(x.waited, x.handled) && x.from > at - CHRONIC_MICROS;
  const readAfterOnset = graph.edges.some((e) => bothRead(e).some((t) => t >= at + AFTER_ONSET_MICROS));
  const reads = new Map(graph.edges.map((e) => [e, readAfter(e, at, readAfterOnset)]));
  // The caller's calls that lose time, counted generously: at one sample, half the loss that names
  // a callee, or a fifth of it when that is GROWN_LOSS times what the call lost before the onset.
  const losingCallees = (caller: string): number =>
    (calls.get(caller) ?? []).filter((e) => {
      const x = reads.get(e);
      if (!x) return false;
      return x.peak >= MIN_LOST_SECONDS / 2 || (x.usual !== null && x.peak >= MIN_LOST_SECONDS / 5 && x.peak >= GROWN_LOSS * Math.max(0, x.usual));
    }).length;
  const found: LostTime[] = [];
  for (const callee of reached) {
    const after = (callersOf.get(callee) ?? []).map((e) => reads.get(e)).filter((x): x is EdgeAfter => !!x);
    const losing = after.filter(losingEdge);
    if (!losing.length || losing.length * 2 <= after.length) continue;
    if (losing.length === 1 && after.length === 1 && losingCallees(losing[0].edge.caller) > 1) continue;
    // Walked from the entries, nothing but time ties a loss to the alert: one caller's slow calls are as likely its own.
    if (fromEntries && losing.length < 2) continue;
    found.push({
      callee,
      losing: losing
        .map((x) => ({ caller: x.edge.caller, waited: x.waited, handled: x.handled }))
        .sort((a, b) => b.waited - b.handled - (a.waited - a.handled)),
      callers: after.length,
      lost: median(losing.map((x) => x.waited - x.handled)),
      since: Timestamp.fromEpochMicros(losing.map((x) => x.from).reduce((a, b) => (a < b ? a : b)) - RATE_SPAN_MICROS),
      dependents: [],
    });
  }
  found.sort((a, b) => b.lost - a.lost);
  const root = found[0];
  if (!root) return null;
  // The services on a path from the alerting service to the callee: each waits on it.
  const waiting = reachable([root.callee], (s) => (callersOf.get(s) ?? []).map((e) => e.caller).filter((c) => reached.has(c)));
  root.dependents = [...waiting].filter((s) => s !== root.callee).sort();
  return root;
}

/** What the graph leaves unexplained about a loss: what delays the calls between the ends. */
export const lostTimeUnexplained = (lost: LostTime): string =>
  `what delays the calls between ${lost.callee}'s callers and it (no series here shows its network or proxy)`;
