import { describe, expect, it } from 'vitest';
import { onset, scripted, source } from '../../../../../test/support/scripted-prometheus';
import { MetricPresence } from '../discovery/metric-presence';
import type { DetectedCause, DetectionScope, Explainer } from './explainer';
import { detectionScopeOf } from './labels';
import { DATASTORE_EXPLAINERS, EXPLAINERS, explainCauses } from './registry';

const scope: DetectionScope = detectionScopeOf([{ namespace: 'shop', job: 'api' }], onset, false);

/** An explainer that reads one series and states a cause from it (ruled out when `refuted`), noting that it ran. */
const reading = (name: string, ran: string[], { applies = true, refuted = false } = {}): Explainer => ({
  name,
  reads: [`${name}_total`],
  appliesTo: () => applies,
  async explain(ctx) {
    ran.push(name);
    const run = await ctx.read(`${name}_total`, `Did ${name} change near the onset?`);
    return {
      id: `h-${name}`,
      statement: `${name} caused the alert's condition`,
      at: onset,
      run,
      mechanism: `${name} changed`,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [],
      action: { title: `Undo ${name}`, rationale: '', verification: '' },
      ...(refuted ? { refuted: { because: 'not on this node', runs: [run.ordinal] } } : {}),
    };
  },
});

describe('explainCauses', () => {
  it('runs the explainers that apply, in order, and not one that does not', async () => {
    const ran: string[] = [];
    const explainers = [reading('queue', ran), reading('pool', ran, { applies: false }), reading('surge', ran)];
    const { causes } = await explainCauses(
      scripted(() => undefined),
      source,
      scope,
      explainers,
      MetricPresence.UNKNOWN,
    );
    expect(ran).toEqual(['queue', 'surge']);
    expect(causes.map((c) => c.id)).toEqual(['h-queue', 'h-surge']);
  });

  it('stops when the next explainer would eat into the runs kept for testing the hypotheses, counting the causes that stand', async () => {
    // 11 runs: before the third explainer 2 are read, 5 kept for the tests, 2 for it and 2 for the causes that stand.
    const ran: string[] = [];
    const session = scripted(() => undefined, 11);
    const { causes } = await explainCauses(session, source, scope, [reading('a', ran), reading('b', ran), reading('c', ran)], MetricPresence.UNKNOWN);
    expect(ran).toEqual(['a', 'b']);
    expect(causes).toHaveLength(2);
    expect(session.runs).toHaveLength(2);
    // A cause ruled out does not take a run of the tests: the third explainer runs.
    const again: string[] = [];
    await explainCauses(
      scripted(() => undefined, 11),
      source,
      scope,
      [reading('a', again, { refuted: true }), reading('b', again), reading('c', again)],
      MetricPresence.UNKNOWN,
    );
    expect(again).toEqual(['a', 'b', 'c']);
  });

  it('lets an explainer take over a cause found before it, which leaves the list', async () => {
    const ran: string[] = [];
    const continuing: Explainer = {
      name: 'probe',
      reads: ['probe_success'],
      appliesTo: () => true,
      async explain(_ctx, found) {
        const root = found.find((c) => c.id === 'h-queue')!;
        const cause: DetectedCause = { ...root, id: 'h-probe', statement: `${root.statement}, through the probe` };
        return { cause, replaces: root };
      },
    };
    const { causes } = await explainCauses(
      scripted(() => undefined),
      source,
      scope,
      [reading('queue', ran), reading('surge', ran), continuing],
      MetricPresence.UNKNOWN,
    );
    expect(causes.map((c) => c.id)).toEqual(['h-surge', 'h-probe']);
    expect(causes[1].statement).toBe("queue caused the alert's condition, through the probe");
  });

  it('returns the limitations and passed liveness probes the explainers noted', async () => {
    const noting: Explainer = {
      name: 'noting',
      reads: ['probe_success'],
      appliesTo: () => true,
      async explain(ctx) {
        ctx.limitations.push({ type: 'missing_telemetry', statement: 'No probe metric', runRefs: [], messageSequences: [] });
        ctx.livenessPassed.set('api-0', 3);
        return null;
      },
    };
    const explained = await explainCauses(
      scripted(() => undefined),
      source,
      scope,
      [noting],
      MetricPresence.UNKNOWN,
    );
    expect(explained.causes).toEqual([]);
    expect(explained.limitations.map((l) => l.statement)).toEqual(['No probe metric']);
    expect([...explained.livenessPassed]).toEqual([['api-0', 3]]);
  });

  it('reads which of their metrics are collected, leaves out the explainers none of whose metrics has series, and says so', async () => {
    const ran: string[] = [];
    // Only queue_total has series; the others' metrics are not collected.
    const session = scripted(() => undefined, 40, { collected: ['queue_total'] });
    const { causes, limitations } = await explainCauses(session, source, scope, [reading('queue', ran), reading('surge', ran), reading('pool', ran)]);
    expect(session.runs[0]).toMatchObject({
      tool: 'prometheus.label_values',
      arguments: { label: '__name__', match: ['{__name__=~"queue_total|surge_total|pool_total"}'] },
    });
    expect(ran).toEqual(['queue']);
    expect(causes.map((c) => c.id)).toEqual(['h-queue']);
    expect(limitations).toEqual([
      {
        type: 'missing_telemetry',
        statement: 'Not looked for, as none of the metrics they read has series in the window: surge, pool',
        runRefs: [1],
        messageSequences: [],
      },
    ]);
    // Where the list could not be read, every explainer runs.
    const all: string[] = [];
    await explainCauses(
      scripted(() => undefined),
      source,
      scope,
      [reading('queue', all), reading('surge', all)],
    );
    expect(all).toEqual(['queue', 'surge']);
  });

  it('runs an explainer that reads no metric (a datastore) whatever Prometheus collects, and never lists it as not looked for', async () => {
    const ran: string[] = [];
    const direct: Explainer = { ...reading('direct', ran), reads: [] };
    const found = await explainCauses(
      scripted(() => undefined, 40, { collected: ['other_total'] }),
      source,
      scope,
      [direct, reading('queue', ran)],
    );
    expect(ran).toEqual(['direct']);
    expect(found.notLookedFor).toEqual(['queue']);
  });

  it('without a Prometheus source, runs only the explainers that read no metric, and reads no metric list', async () => {
    const ran: string[] = [];
    const direct: Explainer = {
      name: 'direct',
      reads: [],
      appliesTo: () => true,
      async explain(ctx) {
        ran.push('direct');
        expect(ctx.source).toBeNull();
        // The metric read has nothing to read from: an explainer that reads metrics is never given this context.
        expect(() => ctx.read('up', 'Up?')).toThrow('No Prometheus source to read the metrics from');
        return null;
      },
    };
    const session = scripted(() => undefined, 40, { collected: ['queue_total'] });
    const found = await explainCauses(session, null, scope, [reading('queue', ran), direct, reading('surge', ran)]);
    expect(ran).toEqual(['direct']);
    expect(session.runs).toEqual([]);
    expect(found.notLookedFor).toEqual([]);
    expect(found.limitations).toEqual([]);
  });

  it('runs, without Prometheus, the datastore explainers of the list in its order, with the families read only there', () => {
    expect(DATASTORE_EXPLAINERS.map((e) => e.name)).toEqual([
      'broker queues without consumers',
      'datastore lock waits',
      'datastore connections',
      'MySQL connections',
      'Redis memory, clients and stalls',
    ]);
    expect(DATASTORE_EXPLAINERS.every((e) => e.reads.length === 0)).toBe(true);
    // The investigation that reads Prometheus keeps its explainers.
    expect(EXPLAINERS.map((e) => e.name)).not.toContain('MySQL connections');
    expect(EXPLAINERS.map((e) => e.name)).not.toContain('Redis memory, clients and stalls');
  });

  it('orders the built-in explainers: a new version first (in the metrics, then in the Kubernetes API), then from the alert entity outwards, liveness restarts, the logs, and the proximate events last', () => {
    expect(EXPLAINERS.map((e) => e.name)).toEqual([
      'new versions',
      'rollouts in the Kubernetes API',
      'queue consumers',
      'broker queues without consumers',
      'crash loop',
      'pod states from the Kubernetes API',
      'dependency',
      'datastore lock waits',
      'datastore connections',
      'connection pool',
      'traffic surge',
      'nodes and volumes',
      'CPU throttling',
      'liveness restarts',
      'new log templates',
      'restarts',
      'scrape targets down',
      'process CPU saturation',
    ]);
  });
});
