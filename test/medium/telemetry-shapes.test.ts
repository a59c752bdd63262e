import { afterAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, score, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SHAPE_SCENARIOS } from '../../eval/shape-scenarios';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';

/**
 * The built-in reasoner on telemetry shapes real clusters have (eval/shapes.ts, the shapes-dev
 * suite: the holdout is never run here): each scenario's three hours of data backfilled into a
 * real Prometheus, its page derived from its rule, investigated with the default budgets.
 */
describe('the reasoner on the telemetry shapes of real clusters', () => {
  const staged: StagedPrometheus[] = [];

  afterAll(async () => {
    await Promise.all(staged.map((s) => s.stop()));
  });

  const investigate = async (name: string) => {
    const scenario = SHAPE_SCENARIOS.find((s) => s.name === name && s.split === 'dev')!;
    expect(scenario).toBeDefined();
    const prometheus = await stagePrometheus(scenario);
    staged.push(prometheus);
    // The page, and the alerts of the scenario's other rules that join its group, as the harness delivers them.
    const [[page], ...others] = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(prometheus.prometheus.url, r, prometheus.start, prometheus.end)),
    );
    expect(page).toBeDefined();
    const session = directSession(prometheus.prometheus.url, page, others.flat());
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    const result = score(scenario, { id: session.investigationId, status: 'concluded', ...conclusion, runs: session.runs }, 0, []);
    expect(session.runs.length).toBeLessThanOrEqual(DEFAULT_BUDGETS.toolRuns);
    expect(conclusion.conclusionStatus).not.toBe('verified_cause');
    return { conclusion, session, result, cause: conclusion.findings.find((f) => f.kind === 'cause') };
  };

  it("reads a statsd exporter's series by the service they name, not by the exporter's own pod, and walks to the peer", async () => {
    const { result, cause, conclusion } = await investigate('inventory-slow-statsd-peer-summary');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^A rise of the p90 latency of inventory /);
    expect(cause?.mechanism).toMatch(/^checkout waits on inventory: /);
    // The supported suspect's consequence: what waits on it changed after it.
    expect(conclusion.findings.map((f) => `${f.kind}: ${f.statement}`)).toContain(
      'symptom: checkout changes after inventory: it waits on it or shares its node, so its change is a consequence',
    );
    expect(`${cause?.statement} ${cause?.mechanism}`).not.toContain('statsd-exporter');
  }, 120_000);

  it("takes a cloud exporter's other services for candidates when no namespace and no calls are known", async () => {
    const { result, cause, session } = await investigate('lambda-pricing-concurrency-yace');
    expect(result.top1).toBe(true);
    expect(cause?.mechanism).toMatch(/^pricing-fn is listed by the same exporter and metrics as storefront-api; no call between them is known/);
    // The siblings were read from the metric family's dimension, not from a namespace.
    expect(session.runs.some((r) => String(r.arguments.query ?? '').includes('count by (dimension_FunctionName)'))).toBe(true);
  }, 120_000);

  it('walks past the dependency the alerting service waits on to the one two calls below that slowed first', async () => {
    const { result, cause, conclusion } = await investigate('pricing-slow-two-hops-micrometer');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/pricing/);
    // The dependency in between is stated as a consequence, waiting on it.
    expect(conclusion.findings.some((f) => f.kind === 'symptom' && /^cart/.test(f.statement) && f.statement.includes('waits on pricing'))).toBe(true);
  }, 120_000);

  it('names a downstream that answers many times slower as slow, its failing calls a consequence', async () => {
    const { result, cause } = await investigate('payments-p99-fifty-fold');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^payments answered slowly from .*, \d+ times slower than before, and the calls to it failed with it/);
  }, 120_000);

  it('names the ConfigMap edited just before a crash loop that no rollout followed, not the harmless one edited earlier', async () => {
    const { result, cause } = await investigate('inventory-configmap-crashloop-node');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The edit of ConfigMap \S+ at .*, just before the containers of inventory began to crash loop/);
    // Which ConfigMap the workload reads no series says: supported, with that left open.
    expect(cause?.mechanism).toContain('did not roll out');
  }, 120_000);

  it('names the Job that started as the connections of the database began to rise to their maximum', async () => {
    const { result, cause, conclusion } = await investigate('invoice-export-job-connections-micrometer');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(
      /^The Job \S+ of CronJob invoice-export in batch, started at .*, took the connections of ordersdb:5432 until they reached their maximum/,
    );
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement).join('\n')).toContain('the metrics do not count connections per client');
  }, 120_000);

  it("reads cAdvisor's series by their pods' workloads whatever service kube-prometheus labels them with", async () => {
    const { result, session } = await investigate('inventory-cpu-starved-kube-prometheus');
    expect(result.top1).toBe(true);
    // No read grouped the containers' CPU by the kubelet's service label.
    expect(session.runs.some((r) => /by \(service\) \(rate\(container_cpu_usage_seconds_total/.test(String(r.arguments.query ?? '')))).toBe(false);
  }, 120_000);
});
