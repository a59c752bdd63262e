import { describe, expect, it } from 'vitest';
import type { Measure } from '../discovery/related-series';
import type { MeasureKind } from '../discovery/meaning';
import type { RankedChange } from '../ranking/ranked-changes';
import type { RecordedRun } from '../reasoner';
import { alignment, Anomaly, anomalyOf, attachChanges, Relation, suspectsOf } from './suspects';

const MINUTE = 60_000_000n;
const ONSET = 1_000_000n * MINUTE;
const run = { ordinal: 1 } as RecordedRun;

/** A measure of `kind` named by `label` (a caller's calls to a peer when `peer` is given). */
function measure(kind: MeasureKind, label = 'service', peer?: string, unit?: Measure['meaning']['unit']): Measure {
  return {
    metric: `m_${kind}`,
    label,
    peerLabel: peer,
    meaning: { kind, counter: false, distribution: null, worse: kind === 'availability' ? 'down' : 'up', unit },
  };
}

/** A change of `entity`'s `kind` that began `minutesBefore` the onset, `score` strong (of a caller's calls to `peer`, when given). */
function change(entity: string, kind: MeasureKind, minutesBefore: number, score = 500, peer?: string, levels: [number, number] = [1, 10]): Anomaly {
  const m = measure(kind, 'service', peer ? 'peer' : undefined, kind === 'saturation' ? 'ratio' : undefined);
  const c: RankedChange = {
    entity: peer ?? entity,
    what: `the ${kind} of ${entity}${peer ? `'s calls to ${peer}` : ''}`,
    measure: m,
    labels: { service: entity, ...(peer ? { peer } : {}) },
    change: {
      at: ONSET - BigInt(Math.round(minutesBefore * 60)) * 1_000_000n,
      score,
      direction: levels[1] >= levels[0] ? 'up' : 'down',
      before: levels[0],
      after: levels[1],
    },
    run,
  };
  return anomalyOf(c, ONSET);
}

const relations = (entries: Array<[string, Relation]>): Map<string, Relation> => new Map(entries);

describe('alignment', () => {
  it('is whole from a few minutes before the onset to just after it, falls for earlier changes, and is nothing for later ones', () => {
    expect(alignment(ONSET - 3n * MINUTE, ONSET)).toBe(1);
    expect(alignment(ONSET + MINUTE, ONSET)).toBe(1);
    expect(alignment(ONSET + 3n * MINUTE, ONSET)).toBe(0);
    expect(alignment(ONSET - 18n * MINUTE, ONSET)).toBeCloseTo(0.55, 2);
    expect(alignment(ONSET - 60n * MINUTE, ONSET)).toBe(0.1);
  });
});

describe('suspectsOf', () => {
  const chain = [
    { caller: 'frontend', callee: 'checkout' },
    { caller: 'checkout', callee: 'currency' },
  ];

  it('walks downstream to the change of the deepest callee that began no later, and says whose changes it explains', () => {
    const suspects = suspectsOf({
      anomalies: [change('frontend', 'latency', 1), change('checkout', 'latency', 2), change('currency', 'saturation', 3, 800, undefined, [0.1, 1])],
      relations: relations([
        ['frontend', 'alerting'],
        ['checkout', 'callee'],
        ['currency', 'callee'],
      ]),
      pairs: chain,
      alerting: ['frontend'],
    });
    expect(suspects.map((s) => s.entity)).toEqual(['currency']);
    expect(suspects[0].path).toEqual(['frontend', 'checkout', 'currency']);
    expect(suspects[0].explains.sort()).toEqual(['checkout', 'frontend']);
  });

  it('does not let a callee whose change began later explain its caller: the caller is its own suspect', () => {
    const suspects = suspectsOf({
      anomalies: [change('checkout', 'latency', 5), change('currency', 'latency', 1)],
      relations: relations([
        ['checkout', 'callee'],
        ['currency', 'callee'],
      ]),
      pairs: chain,
      alerting: ['frontend'],
    });
    expect(suspects.map((s) => s.entity).sort()).toEqual(['checkout', 'currency']);
  });

  it("takes a caller's waits on a callee for the callee's, explained by the callee's own change", () => {
    const suspects = suspectsOf({
      anomalies: [change('checkout', 'latency', 2, 500, 'currency'), change('currency', 'errors', 2)],
      relations: relations([
        ['checkout', 'alerting'],
        ['currency', 'callee'],
      ]),
      pairs: chain,
      alerting: ['checkout'],
    });
    expect(suspects).toHaveLength(1);
    expect(suspects[0]).toMatchObject({ entity: 'currency', relation: 'callee' });
    expect(suspects[0].lead.trouble).toBe('errors');
  });

  it('ranks a change that began at the onset before a stronger one that began half an hour earlier (an earlier episode)', () => {
    const suspects = suspectsOf({
      anomalies: [change('cart', 'latency', 40, 1000), change('payments', 'errors', 2, 60)],
      relations: relations([
        ['cart', 'callee'],
        ['payments', 'callee'],
      ]),
      pairs: [],
      alerting: ['checkout'],
    });
    expect(suspects.map((s) => s.entity)).toEqual(['payments']);
  });

  it('keeps the history when nothing began near the onset', () => {
    const suspects = suspectsOf({
      anomalies: [change('cart', 'latency', 40, 1000)],
      relations: relations([['cart', 'callee']]),
      pairs: [],
      alerting: ['checkout'],
    });
    expect(suspects.map((s) => s.entity)).toEqual(['cart']);
  });

  it("takes a neighbour's CPU surge on the victim's node for the cause of its slowness, not the neighbour's own slowness", () => {
    const nodeOf = (e: string): string[] => (e === 'search' || e === 'transcode' || e === 'batch' ? ['node-1'] : []);
    const suspects = suspectsOf({
      anomalies: [change('search', 'latency', 1), change('transcode', 'saturation', 2, 800, undefined, [0.2, 0.95]), change('batch', 'latency', 2, 900)],
      relations: relations([
        ['search', 'alerting'],
        ['transcode', 'neighbour'],
        ['batch', 'neighbour'],
      ]),
      pairs: [],
      alerting: ['search'],
      nodeOf,
    });
    expect(suspects.map((s) => s.entity)).toEqual(['transcode']);
    // batch's slowness on the same node is the same neighbour's doing.
    expect(suspects[0].explains.sort()).toEqual(['batch', 'search']);
  });

  it('does not take a share of a limit that stays far from it for saturation', () => {
    const suspects = suspectsOf({
      anomalies: [change('orders', 'saturation', 2, 900, undefined, [0.01, 0.04])],
      relations: relations([['orders', 'callee']]),
      pairs: [],
      alerting: ['checkout'],
    });
    expect(suspects).toEqual([]);
  });

  it("leaves the alerting entity's own symptom as a suspect only below what it depends on", () => {
    const suspects = suspectsOf({
      anomalies: [change('checkout', 'errors', 1, 1000), change('inventory', 'errors', 2, 100)],
      relations: relations([
        ['checkout', 'alerting'],
        ['inventory', 'sibling'],
      ]),
      pairs: [],
      alerting: ['checkout'],
    });
    expect(suspects.map((s) => s.entity)).toEqual(['inventory', 'checkout']);
  });
});

describe('attachChanges', () => {
  it('ties a release to the suspect whose change followed it, ranks it first, and returns the releases that lead none', () => {
    const suspects = suspectsOf({
      anomalies: [change('cart', 'latency', 2, 1000), change('adservice', 'errors', 2, 50)],
      relations: relations([
        ['cart', 'callee'],
        ['adservice', 'callee'],
      ]),
      pairs: [],
      alerting: ['frontend'],
    });
    expect(suspects[0].entity).toBe('cart');
    const at = (minutesBefore: number): string => new Date(Number((ONSET - BigInt(minutesBefore * 60) * 1_000_000n) / 1000n)).toISOString();
    const recorded = (id: string, service: string, minutesBefore: number) => ({
      id,
      occurredAt: at(minutesBefore),
      minutesBeforeOnset: minutesBefore,
      kind: 'deploy',
      service,
      environment: null,
      summary: `${service} 2.0`,
      author: null,
      versionBefore: '1.0',
      versionAfter: '2.0',
      source: 'generic',
      links: [],
    });
    const unattached = attachChanges(
      suspects,
      [recorded('a', 'adservice', 4), recorded('b', 'emails', 4), recorded('c', 'cart', 45)],
      (c) => BigInt(Date.parse(c.occurredAt)) * 1000n,
    );
    expect(suspects[0]).toMatchObject({ entity: 'adservice', reported: { id: 'a' } });
    expect(suspects[1].reported).toBeUndefined();
    expect(unattached.map((c) => c.id)).toEqual(['b', 'c']);
  });
});
