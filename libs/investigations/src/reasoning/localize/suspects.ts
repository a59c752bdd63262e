import type { CallPair } from '../graph/call-graph';
import { groupLabel } from '../discovery/related-series';
import type { RankedChange } from '../ranking/ranked-changes';
import type { RecordedChange } from '../recorded-changes';

/** How a candidate relates to the alerting entity: itself, what it calls (directly or not), what shares its nodes, a node, another entity of its metric family. */
export type Relation = 'alerting' | 'callee' | 'neighbour' | 'node' | 'sibling';

/** A change of a candidate, placed: on the candidate's own series, or on its callers' calls to it. */
export interface Anomaly {
  change: RankedChange;
  /** The entity the change is on: a callee's, for a caller's calls to it. */
  entity: string;
  /** For a change of a caller's calls to `entity`: the caller. */
  caller?: string;
  /** How well its start matches the alert's episode: 1 from a few minutes before the onset to just after it, less the earlier it began. */
  alignment: number;
  /** What kind of trouble it is, or null when it is no trouble (a fall of traffic, an improvement). */
  trouble: Trouble | null;
}

export type Trouble = 'saturation' | 'availability' | 'restarts' | 'errors' | 'latency' | 'surge';

/** A candidate cause: an entity whose change nothing it depends on explains. */
export interface Suspect {
  entity: string;
  relation: Relation;
  /** Its change that ranks first, and the others seen on it (strongest first). */
  lead: Anomaly;
  others: Anomaly[];
  /** The chain of calls from the alerting entity to it, both ends included, when the calls show one. */
  path: string[];
  /** The entities whose changes it explains (those that wait on it, or share its node). */
  explains: string[];
  score: number;
  /** A change a deploy or configuration tool reported on it just before its lead change began (see attachChanges). */
  reported?: RecordedChange;
}

/** A change that began this long after another may still be its consequence (rates over windows date a change up to a step late). */
const SLACK_MICROS = 120_000_000n;
/** A callee's change explains a caller's that began at most this much before it (the two read at the same step). */
const STEP_MICROS = 60_000_000n;
const MINUTE_MICROS = 60_000_000;
/** Changes that began from this many minutes before the onset to just after it match the alert's episode fully. */
const ALIGNED_BEFORE_MINUTES = 6;
const ALIGNED_AFTER_MINUTES = 2;
/** Earlier than this before the onset, a change is the history of the window (an earlier episode), not a cause of this one. */
const HISTORY_MINUTES = 30;
/** Below this alignment a change is history: a suspect only when nothing aligned is found. */
export const HISTORY_ALIGNMENT = 0.3;

/** A share of a limit this high is near it; one grown by this much has moved a good part of the way. */
const NEAR_LIMIT = 0.6;
const GROWN_SHARE = 0.3;

const KIND_WEIGHT: Record<Trouble, number> = { saturation: 1, availability: 1, restarts: 0.9, errors: 0.9, latency: 0.85, surge: 0.6 };
const RELATION_WEIGHT: Record<Relation, number> = { callee: 1, node: 0.9, neighbour: 0.85, sibling: 0.85, alerting: 1 };
/** The alerting entity's own latency and failures are its symptom: a suspect of its own only when nothing else is. */
const SYMPTOM_WEIGHT = 0.6;
/** What can make a suspect of an entity that shares a node with the alerting one: what takes the node's resources. */
const CROWDS: ReadonlySet<Trouble> = new Set(['saturation', 'surge', 'availability']);

/**
 * How well a change's start matches the alert's episode: 1 from ALIGNED_BEFORE_MINUTES before the
 * onset to ALIGNED_AFTER_MINUTES after it, falling linearly to 0.1 at HISTORY_MINUTES before; 0 later than that after it.
 */
export function alignment(at: bigint, onset: bigint): number {
  const before = Number(onset - at) / MINUTE_MICROS;
  if (before < -ALIGNED_AFTER_MINUTES) return 0;
  if (before <= ALIGNED_BEFORE_MINUTES) return 1;
  if (before >= HISTORY_MINUTES) return 0.1;
  return 1 - (0.9 * (before - ALIGNED_BEFORE_MINUTES)) / (HISTORY_MINUTES - ALIGNED_BEFORE_MINUTES);
}

/** The trouble a change is, by what its measure means and which way it went; null for a change that is not trouble. */
export function troubleOf(c: RankedChange): Trouble | null {
  const { kind, worse, unit } = c.measure.meaning;
  // A share of a limit is trouble once it nears the limit, or has grown by a good part of it.
  if (kind === 'saturation' && (unit === 'ratio' || unit === 'percent') && worse === 'up') {
    // A ratio by its name that reads past 1.5 is a percentage (a cloud exporter's utilization).
    const scale = unit === 'percent' || (!c.measure.derived && Math.max(c.change.before, c.change.after) > 1.5) ? 100 : 1;
    if (c.change.after < NEAR_LIMIT * scale && c.change.after - c.change.before < GROWN_SHARE * scale) return null;
  }
  const up = c.change.direction === 'up';
  const bad = worse === 'either' || (worse === 'up') === up;
  switch (kind) {
    case 'saturation':
      return bad ? 'saturation' : null;
    case 'availability':
      return bad ? 'availability' : null;
    case 'restarts':
      return up ? 'restarts' : null;
    case 'errors':
      return up ? 'errors' : null;
    case 'latency':
      return up ? 'latency' : null;
    case 'throughput':
      return up ? 'surge' : null;
    default:
      return null;
  }
}

/** The strength of a change, 0 to 1: its score in doublings, a thousand-fold change and more counting fully. */
const strength = (c: RankedChange): number => Math.min(1, Math.log2(1 + Math.max(0, c.change.score)) / 10);

/** An anomaly of a ranked change: on the callee its series names, or on the entity its naming label names. */
export function anomalyOf(c: RankedChange, onset: bigint): Anomaly {
  const callee = c.measure.peerLabel ? c.labels[c.measure.peerLabel] : undefined;
  const own = c.labels[groupLabel(c.measure)] ?? c.entity;
  return {
    change: c,
    entity: callee ?? own,
    caller: callee ? own : undefined,
    alignment: alignment(c.change.at, onset),
    trouble: troubleOf(c),
  };
}

const rankOf = (a: Anomaly, relation: Relation): number =>
  a.trouble
    ? a.alignment *
      (0.25 + 0.75 * strength(a.change)) *
      KIND_WEIGHT[a.trouble] *
      RELATION_WEIGHT[relation] *
      (relation === 'alerting' && !a.caller && (a.trouble === 'latency' || a.trouble === 'errors') ? SYMPTOM_WEIGHT : 1)
    : 0;

export interface SuspectInput {
  anomalies: Anomaly[];
  /** Every candidate and how it relates to the alerting entity (names as the anomalies name them). */
  relations: Map<string, Relation>;
  /** Who calls whom among the candidates (and beyond). */
  pairs: ReadonlyArray<CallPair>;
  /** The workloads sharing a node with each other, by node: a neighbour's surge explains a victim's trouble on the same node. */
  nodeOf?: (entity: string) => string[];
  /** The alerting entities' names as the anomalies name them. */
  alerting: string[];
}

/** Whether two names name the same entity: equal, or one of them the other's host with a port or a domain (`inventory:8080`, `inventory.shop.svc`). */
export const same = (a: string, b: string): boolean =>
  a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}:`) || b.startsWith(`${a}.`) || b.startsWith(`${a}:`);

/**
 * Walks the call graph downstream from the alerting entity: a change of an entity (its latency,
 * its failures, its callers' waits on it) is explained by a change of something it calls that began
 * no later (within SLACK_MICROS), or by a neighbour's surge on its node; an entity's own saturation,
 * unavailability or restarts are its own. The suspects are the entities with a change that nothing
 * explains, ranked by how well it matches the alert's episode, its strength, its kind and the
 * entity's relation; the alerting entity itself comes last, as what remains when nothing it
 * depends on changed. Changes of history (HISTORY_ALIGNMENT) make suspects only when no aligned one does.
 */
export function suspectsOf(input: SuspectInput): Suspect[] {
  const callees = new Map<string, Set<string>>();
  for (const p of input.pairs) {
    const set = callees.get(p.caller) ?? new Set<string>();
    set.add(p.callee);
    callees.set(p.caller, set);
  }
  const calls = (caller: string, callee: string): boolean => {
    for (const [from, to] of callees) if (same(caller, from)) for (const t of to) if (same(callee, t)) return true;
    return false;
  };
  // Everything an entity calls, directly or not.
  const below = (entity: string): Set<string> => {
    const seen = new Set<string>();
    const queue = [entity];
    while (queue.length) {
      const at = queue.shift()!;
      for (const [from, to] of callees)
        if (same(at, from))
          for (const t of to)
            if (!seen.has(t)) {
              seen.add(t);
              queue.push(t);
            }
    }
    return seen;
  };
  const relationOf = (entity: string): Relation | undefined => {
    for (const [name, relation] of input.relations) if (same(entity, name)) return relation;
    return undefined;
  };
  const troubled = input.anomalies.filter((a) => a.trouble && a.alignment > 0 && relationOf(a.entity));
  const nodesOf = (entity: string): string[] => input.nodeOf?.(entity) ?? [];
  const explainedBy = (a: Anomaly): Anomaly | undefined => {
    // A node's saturation by a workload on it whose CPU or traffic surged no later: a noisy neighbour.
    if (!a.caller && a.trouble === 'saturation' && relationOf(a.entity) === 'node')
      return troubled.find(
        (b) =>
          !b.caller &&
          relationOf(b.entity) !== 'node' &&
          (b.trouble === 'saturation' || b.trouble === 'surge') &&
          b.change.change.at <= a.change.change.at + SLACK_MICROS &&
          nodesOf(b.entity).includes(a.entity),
      );
    // An entity's own saturation, unavailability and restarts, and a surge of its traffic, are its own.
    if (!a.caller && a.trouble !== 'latency' && a.trouble !== 'errors') return undefined;
    // A caller's waits on a callee: the callee's own trouble explains them.
    if (a.caller)
      return troubled.find((b) => !b.caller && same(b.entity, a.entity) && b.trouble !== 'surge' && b.change.change.at <= a.change.change.at + SLACK_MICROS);
    // Its own saturation, or its own unavailability or restarts, explains its slowness and failures.
    const own = troubled.find(
      (b) =>
        !b.caller &&
        same(b.entity, a.entity) &&
        (b.trouble === 'saturation' || b.trouble === 'availability' || b.trouble === 'restarts') &&
        b.change.change.at <= a.change.change.at + SLACK_MICROS,
    );
    if (own) return own;
    // A callee's trouble (or its own calls to a callee) that began no later: it waits on it.
    const downstream = below(a.entity);
    const callee = troubled.find(
      (b) =>
        b !== a &&
        b.trouble !== 'surge' &&
        b.change.change.at <= a.change.change.at + STEP_MICROS &&
        ((b.caller !== undefined && same(b.caller, a.entity)) || [...downstream].some((d) => same(b.entity, d))),
    );
    if (callee) return callee;
    // A neighbour's surge of CPU or traffic on one of its nodes, or the node's own saturation.
    const nodes = nodesOf(a.entity);
    return troubled.find(
      (b) =>
        !b.caller &&
        !same(b.entity, a.entity) &&
        (b.trouble === 'saturation' || b.trouble === 'surge') &&
        b.change.change.at <= a.change.change.at + SLACK_MICROS &&
        nodesOf(b.entity).some((n) => nodes.includes(n)) &&
        (relationOf(b.entity) === 'neighbour' || relationOf(b.entity) === 'node'),
    );
  };
  // A neighbour's own slowness or failures do not reach the alerting entity; what crowds the node does.
  // Whatever goes wrong with the node itself (saturation, dropped packets, failures) reaches every pod on it.
  const canCause = (a: Anomaly): boolean => relationOf(a.entity) !== 'neighbour' || (!a.caller && CROWDS.has(a.trouble!));
  const roots = troubled.filter((a) => canCause(a) && !explainedBy(a));
  // What each root explains: the entities whose changes lead to it.
  const explains = new Map<Anomaly, Set<string>>();
  for (const a of troubled) {
    let at: Anomaly | undefined = a;
    const chain = new Set<string>();
    for (let i = 0; at && i < 10; i++) {
      const next = explainedBy(at);
      if (!next) break;
      chain.add(at.caller ?? at.entity);
      at = next;
    }
    if (at && at !== a) {
      const set = explains.get(at) ?? new Set<string>();
      for (const e of chain) if (!same(e, at.entity)) set.add(e);
      explains.set(at, set);
    }
  }
  const byEntity = new Map<string, Suspect>();
  const aligned = roots.some((a) => a.alignment >= HISTORY_ALIGNMENT && relationOf(a.entity) !== 'alerting');
  // An entity on which several measures changed at the onset is more likely what changed than one with a single change.
  const corroborated = (a: Anomaly): number => roots.filter((b) => b !== a && same(b.entity, a.entity) && b.alignment >= 0.5).length;
  for (const a of roots) {
    if (aligned && a.alignment < HISTORY_ALIGNMENT) continue;
    const relation = relationOf(a.entity)!;
    const key = a.entity;
    const score = rankOf(a, relation) * (1 + 0.05 * (explains.get(a)?.size ?? 0)) * (1 + 0.05 * Math.min(3, corroborated(a)));
    const held = byEntity.get(key);
    if (!held) {
      byEntity.set(key, { entity: a.entity, relation, lead: a, others: [], path: [], explains: [...(explains.get(a) ?? [])], score });
      continue;
    }
    if (score > held.score) {
      held.others.unshift(held.lead);
      held.lead = a;
      held.score = score;
    } else held.others.push(a);
    held.explains = [...new Set([...held.explains, ...(explains.get(a) ?? [])])];
  }
  const suspects = [...byEntity.values()].sort((a, b) => b.score - a.score);
  for (const s of suspects) s.path = pathTo(input.pairs, input.alerting, s.entity, calls);
  return suspects;
}

/** The shortest chain of calls from one of the alerting entities to `to` (both ends), or [] when none leads there. */
function pathTo(pairs: ReadonlyArray<CallPair>, alerting: string[], to: string, calls: (a: string, b: string) => boolean): string[] {
  const nodes = [...new Set(pairs.flatMap((p) => [p.caller, p.callee]))];
  for (const start of alerting) {
    if (same(to, start)) return [];
    const previous = new Map<string, string>([[start, '']]);
    const queue = [start];
    while (queue.length) {
      const at = queue.shift()!;
      if (at !== start && same(to, at)) {
        const path = [at];
        while (previous.get(path[0])) path.unshift(previous.get(path[0])!);
        return path;
      }
      for (const n of nodes)
        if (!previous.has(n) && calls(at, n)) {
          previous.set(n, at);
          queue.push(n);
        }
    }
  }
  return [];
}

/** A reported change leads its service's change when it came at most this long before it, or this little after it (reports and clocks lag). */
const LEADS_BY_MICROS = 20n * 60_000_000n;
const LAGS_BY_MICROS = 2n * 60_000_000n;

/**
 * Ties the changes deploy and configuration tools reported to the suspects they lead: a change on
 * a suspect's service that came just before its lead change began (a release, then its failures)
 * names what started it, and such a suspect ranks before those without one. Returns the reported
 * changes that lead no suspect.
 */
export function attachChanges(suspects: Suspect[], changes: RecordedChange[], at: (c: RecordedChange) => bigint): RecordedChange[] {
  const unattached: RecordedChange[] = [];
  for (const change of changes) {
    const service = change.service?.toLowerCase();
    const began = at(change);
    const led = service
      ? suspects.find(
          (s) =>
            !s.reported &&
            same(s.entity.toLowerCase(), service) &&
            s.lead.change.change.at + LAGS_BY_MICROS >= began &&
            s.lead.change.change.at - began <= LEADS_BY_MICROS,
        )
      : undefined;
    if (led) led.reported = change;
    else unattached.push(change);
  }
  suspects.sort((a, b) => Number(!!b.reported) - Number(!!a.reported) || b.score - a.score);
  return unattached;
}
