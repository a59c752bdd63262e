import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { ToolCatalog, ToolContext, ToolResult } from '@svc/investigations/tools';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, score, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { DeclaringExporter, declaredTypesScenario as scenario, LONG_HELP, MESH_REQUESTS, PENDING, SESSIONS } from '../support/declared-types-scenario';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';
import { until } from '../support/until';

type Output = {
  count: number;
  metrics: Array<{ metric: string; family?: string; types: string[]; help: string | null; unit: string | null }>;
  missing?: string[];
};
const out = (result: ToolResult) => result.output as Output;
const queries = (runs: ReadonlyArray<{ arguments: Record<string, unknown> }>): string[] => runs.map((r) => String(r.arguments.query ?? ''));

/**
 * Whether a metric is a counter or a gauge, as its scrape target declares it: `prometheus.metadata`
 * against a real Prometheus that scrapes a tiny exporter declaring `# TYPE`s, and the built-in
 * reasoner reading the same backfilled incident with those declarations (a counter named without
 * `_total` read as a rate, a gauge named `..._total` as a level) and without them (by the names
 * and shapes, as before).
 */
describe('the types scrape targets declare (Prometheus metadata)', () => {
  const catalog = new ToolCatalog();
  let exporter: DeclaringExporter;
  let declaring: StagedPrometheus;
  let backfilledOnly: StagedPrometheus | undefined;

  const context = (url: string): ToolContext => ({
    connection: { integrationId: '0190a0b0-0000-7000-8000-000000000003', type: 'prometheus', baseUrl: url, headers: {} },
    window: { from: Timestamp.now().plusSeconds(-3600), until: Timestamp.now() },
    signal: new AbortController().signal,
  });
  const prom = () => context(declaring.prometheus.url);

  beforeAll(async () => {
    exporter = await DeclaringExporter.start();
    declaring = await stagePrometheus(scenario, undefined, undefined, [{ job: 'declaring-exporter', address: exporter.address }]);
    // Metadata exists once the exporter has been scraped.
    await until(
      async () => {
        const body = (await (await fetch(`${declaring.prometheus.url}/api/v1/metadata?metric=${PENDING}`)).json()) as { data: Record<string, unknown[]> };
        return body.data[PENDING]?.length ? true : undefined;
      },
      30_000,
      'Prometheus to scrape the declaring exporter',
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all([declaring?.stop(), backfilledOnly?.stop(), exporter?.stop()]);
  });

  describe('prometheus.metadata', () => {
    it('answers the types the targets declare, a series name by its family, and none where no target declares one', async () => {
      const asked = [MESH_REQUESTS, PENDING, 'rpc_duration_seconds_bucket', 'rpc_duration_seconds_count', SESSIONS];
      const result = await catalog.run('prometheus.metadata', { metrics: asked }, prom());
      expect(result.outcome).toBe('succeeded');
      expect(out(result).metrics).toEqual([
        { metric: MESH_REQUESTS, types: ['counter'], help: "Requests the mesh's sidecars handled.", unit: null },
        { metric: PENDING, types: ['gauge'], help: 'Reservations waiting for stock.', unit: null },
        { metric: 'rpc_duration_seconds_bucket', family: 'rpc_duration_seconds', types: ['histogram'], help: 'How long the calls took.', unit: null },
        { metric: 'rpc_duration_seconds_count', family: 'rpc_duration_seconds', types: ['histogram'], help: 'How long the calls took.', unit: null },
      ]);
      // Backfilled series have no metadata: no target declares checkout's sessions.
      expect(out(result).missing).toEqual([SESSIONS]);
      expect(out(result).count).toBe(4);
      expect(result.summary).toBe(
        `Metadata of 4 of 5 metrics asked: ${MESH_REQUESTS} (counter), ${PENDING} (gauge), rpc_duration_seconds_bucket (histogram), rpc_duration_seconds_count (histogram). None for ${SESSIONS}.`,
      );
      // A list is matched against one read of every metric's metadata, a few entries each.
      expect(result.sources).toEqual(['/api/v1/metadata?limit_per_metric=4']);
    });

    it('asks for one name by name, and without names lists every metric up to the limit', async () => {
      const one = await catalog.run('prometheus.metadata', { metric: MESH_REQUESTS }, prom());
      expect(out(one)).toEqual({
        count: 1,
        metrics: [{ metric: MESH_REQUESTS, types: ['counter'], help: "Requests the mesh's sidecars handled.", unit: null }],
        missing: [],
      });
      expect(one.sources).toEqual([`/api/v1/metadata?metric=${MESH_REQUESTS}&limit_per_metric=4`]);
      const none = await catalog.run('prometheus.metadata', { metric: SESSIONS }, prom());
      expect(none).toMatchObject({ outcome: 'succeeded', output: { count: 0, metrics: [], missing: [SESSIONS] } });
      expect(none.summary).toBe(`No metadata for ${SESSIONS}: no scrape target declares it (backfilled and remote-written metrics have none).`);

      // Everything scraped (the exporter's own metrics and the scrape's), two at most.
      const all = await catalog.run('prometheus.metadata', { limit: 2 }, prom());
      expect(all.outcome).toBe('succeeded');
      expect(all.sources).toEqual(['/api/v1/metadata?limit=2&limit_per_metric=4']);
      expect(out(all).metrics).toHaveLength(2);
      expect(out(all).missing).toBeUndefined();
      expect(all.summary).toMatch(/^Metadata of 2 metrics: .*\. At most 2 by the limit\.$/);
      for (const m of out(all).metrics) expect(m.types).toHaveLength(1);
    });

    it('keeps its answer bounded: the help cut, and the output under the catalog cap', async () => {
      const long = await catalog.run('prometheus.metadata', { metric: 'cache_bytes' }, prom());
      const help = out(long).metrics[0].help!;
      expect(LONG_HELP.length).toBeGreaterThan(200);
      expect(help).toHaveLength(200);
      expect(help).toBe(`${LONG_HELP.slice(0, 199)}…`);

      const small = new ToolCatalog(undefined, { outputCapBytes: 1024 });
      const absent = Array.from({ length: 97 }, (_, i) => `absent_metric_${i}`);
      const cut = await small.run('prometheus.metadata', { metrics: ['cache_bytes', MESH_REQUESTS, PENDING, ...absent] }, prom());
      expect(cut.outcome).toBe('succeeded');
      expect(Buffer.byteLength(JSON.stringify(cut.output))).toBeLessThanOrEqual(1024);
      expect(cut.truncated).toBe(true);
      expect(cut.summary).toMatch(/^Metadata of 3 of 100 metrics asked: /);
    });

    it('refuses bad arguments with a failed run saying which, reading nothing', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ metric: 'not-a-name' }, /^Invalid arguments: arguments\.metric must match pattern/],
        [{ metrics: [] }, /^Invalid arguments: arguments\.metrics must NOT have fewer than 1 items$/],
        [{ metrics: Array.from({ length: 101 }, (_, i) => `m_${i}`) }, /^Invalid arguments: arguments\.metrics must NOT have more than 100 items$/],
        [{ metrics: ['a', 'a'] }, /^Invalid arguments: arguments\.metrics must NOT have duplicate items/],
        [{ limit: 0 }, /^Invalid arguments: arguments\.limit must be >= 1$/],
        [{ match: ['up'] }, /^Invalid arguments: arguments has unknown property match$/],
        [{ metric: MESH_REQUESTS, metrics: [PENDING] }, /^Invalid arguments: give metric \(one name\) or metrics \(a list\), not both$/],
      ];
      for (const [args, message] of cases) {
        const result = await catalog.run('prometheus.metadata', args, prom());
        expect(result, JSON.stringify(args)).toMatchObject({ outcome: 'failed', output: null, truncated: false, sources: [] });
        expect(result.error).toMatch(message);
        expect(result.summary).toMatch(/^prometheus\.metadata failed: Invalid arguments/);
      }
    });
  });

  describe('the built-in reasoner', () => {
    const investigate = async (staged: StagedPrometheus, budgets = DEFAULT_BUDGETS) => {
      const [page] = await deriveAlerts(staged.prometheus.url, scenario.rule, staged.start, staged.end);
      expect(page).toBeDefined();
      const session = directSession(staged.prometheus.url, page, [], budgets);
      const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
      const result = score(scenario, { id: session.investigationId, status: 'concluded', ...conclusion, runs: session.runs }, 0, []);
      return { session, conclusion, result, cause: conclusion.findings.find((f) => f.kind === 'cause') };
    };

    it('reads the counter named without _total as a rate and the gauge named _total as a level, as their targets declare them, for one run', async () => {
      const { session, cause, result, conclusion } = await investigate(declaring);
      const metadata = session.runs.filter((r) => r.tool === 'prometheus.metadata');
      expect(metadata).toHaveLength(1);
      // Asked about the metrics the ranking may read, those of the candidates, and no other.
      const asked = metadata[0].arguments.metrics as string[];
      expect(asked).toEqual(expect.arrayContaining([MESH_REQUESTS, PENDING, SESSIONS]));
      expect(asked).not.toContain('up');
      expect(metadata[0].outcome).toBe('succeeded');
      // Read after it: the counter as a failure ratio of its rate, the gauge as its level; checkout's
      // sessions, which no target declares, as a gauge by their shape.
      const after = queries(session.runs.slice(metadata[0].ordinal));
      expect(after.some((q) => q.includes(`(rate(${MESH_REQUESTS}{`) && q.includes('response_code'))).toBe(true);
      expect(after.some((q) => q.includes(`max by (service) (${PENDING}{`))).toBe(true);
      expect(after.some((q) => q.includes(`rate(${PENDING}`))).toBe(false);
      expect(after.some((q) => q.includes(`max by (service) (${SESSIONS}{`))).toBe(true);
      // So the failure ratio of inventory's answers shows the cause, citing the read that typed it.
      expect(cause?.statement).toMatch(new RegExp(`^A rise of the failure ratio of inventory \\(${MESH_REQUESTS}\\) from `));
      expect(conclusion.hypotheses.find((h) => h.id === cause?.hypothesisId)?.runRefs).toContain(metadata[0].ordinal);
      expect(result.top1).toBe(true);
    }, 120_000);

    it('spends no run on the types when it would take one the ranking or what follows needs: the names decide', async () => {
      // 12 runs: the discovery ends at the 8th; the read of the types, a ranking read and the four runs kept after it would need 14.
      const { session } = await investigate(declaring, { ...DEFAULT_BUDGETS, toolRuns: 12 });
      const naming = session.runs.findIndex((r) => r.purpose.endsWith('and by which label'));
      expect(naming).toBeGreaterThan(0);
      expect(session.runs.filter((r) => r.tool === 'prometheus.metadata')).toEqual([]);
      expect(queries(session.runs).some((q) => new RegExp(`max by \\([a-z_, ]+\\) \\(${MESH_REQUESTS}\\{`).test(q))).toBe(true);
    }, 120_000);

    it('without metadata, reads them by their names and shapes as before: the counter as a level, the growing gauge as a rate', async () => {
      backfilledOnly = await stagePrometheus(scenario);
      const { session, cause } = await investigate(backfilledOnly);
      // The read was made and found nothing: backfilled data has no metadata.
      const metadata = session.runs.filter((r) => r.tool === 'prometheus.metadata');
      expect(metadata).toHaveLength(1);
      expect(metadata[0]).toMatchObject({ outcome: 'succeeded', output: { count: 0, metrics: [] } });
      const all = queries(session.runs);
      expect(all.some((q) => new RegExp(`max by \\([a-z_, ]+\\) \\(${MESH_REQUESTS}\\{`).test(q))).toBe(true);
      expect(all.some((q) => q.includes(`(rate(${MESH_REQUESTS}{`) && !q.includes('[1m]'))).toBe(false);
      expect(all.some((q) => q.includes(`(rate(${PENDING}{`))).toBe(true);
      expect(all.some((q) => q.includes(`max by (service) (${SESSIONS}{`))).toBe(true);
      expect(cause?.statement ?? '').not.toMatch(new RegExp(`failure ratio of inventory \\(${MESH_REQUESTS}\\)`));
    }, 120_000);
  });
});
