import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { DerivedAlert, deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import type { Scenario } from '../../eval/scenarios';
import { CHECKOUT_ERROR_RULE, shopWithCheckoutFailing } from '../support/checkout-errors';
import { shop } from '../../eval/shop';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';
import { LokiEntry, LokiStandIn } from '../support/loki-stand-in';

const MINUTE = 60;
/** checkout's errors begin this many minutes before the end of the data. */
const ERRORS_AGO = 12;

const rule = CHECKOUT_ERROR_RULE;

/** checkout fails a tenth of its requests from ERRORS_AGO minutes before the end: no version, restart or saturation in the metrics says why. */
const scenario: Scenario = {
  name: 'checkout-errors-from-a-code-fault-in-inventory',
  family: 'configuration',
  story: 'inventory began throwing on every reservation; checkout fails the orders that reserve stock. Only the logs show it.',
  redHerrings: ['an error payments writes all along', "a caller's errors that name inventory", "checkout's own error, there all along"],
  seed: 137,
  build(end) {
    return shopWithCheckoutFailing(end, this.seed, ERRORS_AGO);
  },
  rule,
  truth: { values: [['inventory']], series: /./ },
};

/**
 * An hour of the shop's logs up to `end` (Unix seconds): every workload logs its work; checkout
 * and payments each write an error all along; from half a minute before checkout's errors,
 * inventory writes a new error of its own (with `allAlong`, one it wrote every ten minutes
 * before), and frontend, more often still, errors that name it.
 */
function logs(namespace: string, end: number, options: { allAlong?: boolean } = {}): LokiEntry[] {
  const entries: LokiEntry[] = [];
  const start = end - 60 * MINUTE;
  const fault = end - ERRORS_AGO * MINUTE - 30;
  const labels = (app: string) => ({ namespace, app, pod: `${app}-6c5d4f-k2x9p` });
  const every = (app: string, from: number, seconds: number, line: (i: number) => string, ns = 0n) => {
    for (let t = from, i = 0; t < end; t += seconds, i++) entries.push({ at: BigInt(t) * 1_000_000_000n + ns, labels: labels(app), line: line(i) });
  };
  every('checkout', start, 20, (i) => `level=info msg="order placed" order=${7000 + i}`);
  every('checkout', start + 3, 120, (i) => `level=error msg="payment provider timed out" order=${7100 + i}`, 1n);
  every('payments', start + 5, 60, (i) => `level=error msg="card declined by issuer" payment=${900 + i}`);
  every('inventory', start + 7, 30, () => 'level=info msg="stock level checked"');
  const reservationFailed = (i: number) =>
    `level=error msg="stock reservation failed: NullPointerException in ReservationService.reserve" sku=${400 + (i % 7)}`;
  if (options.allAlong)
    for (let t = start + 11; t < fault; t += 10 * MINUTE)
      entries.push({ at: BigInt(t) * 1_000_000_000n + 4n, labels: labels('inventory'), line: reservationFailed(t) });
  every('inventory', fault, 10, reservationFailed, 2n);
  every('frontend', start + 9, 15, () => 'level=info msg="page served"');
  every('frontend', fault + 20, 3, (i) => `level=error msg="GET http://inventory:8080/api/stock/${500 + (i % 9)} failed" status=503`, 3n);
  return entries;
}

/**
 * When the metrics leave the condition unexplained, the built-in reasoner reads the logs (a real
 * Prometheus and the Loki stand-in): the alerting workload's own error there all along is ruled
 * out; among the workloads whose errors began near the onset, one whose errors name another is a
 * caller reporting it and is passed over; the one that began writing an error of its own is the cause.
 */
describe('errors in the logs, when the metrics explain nothing', () => {
  let staged: StagedPrometheus | undefined;
  let loki: LokiStandIn | undefined;

  let page: DerivedAlert;

  beforeAll(async () => {
    staged = await stagePrometheus(scenario);
    const alerts = await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end);
    expect(alerts).toHaveLength(1);
    page = alerts[0];
    loki = await LokiStandIn.start({ entries: logs(page.labels.namespace, staged.end) });
  }, 120_000);

  afterAll(async () => {
    await staged?.stop();
    await loki?.close();
  });

  it('names the workload whose own error began at the onset, past a caller that reports it and errors there all along', async () => {
    // The shop's exporters could take the default budget of runs; the runs the logs need are kept for them.
    const session = directSession(staged!.prometheus.url, page, [], DEFAULT_BUDGETS, undefined, { url: loki!.url });
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    expect(cause?.statement).toMatch(/^New errors in the logs of inventory from \S+, `.*stock reservation failed.*`, caused the alert's condition$/);
    expect(cause?.mechanism).toContain('and not in the 15 min before');
    // frontend's errors began too, and more often, but they name inventory: a caller reporting it.
    expect(cause?.mechanism).toMatch(
      /the only error that began near the onset in a workload's own logs\. frontend began reporting errors that name inventory too$/,
    );
    expect(conclusion.conclusionStatus).toBe('supported_explanation');

    const runs = session.runs;
    const patterns = runs.filter((r) => r.tool === 'loki.log_patterns');
    // checkout's own templates first, then every workload's errors of the namespace, mined apart by app.
    expect(patterns.map((r) => [r.arguments.selector, r.arguments.by])).toEqual([
      ['{namespace="shop", app="checkout"}', undefined],
      ['{namespace="shop"}', 'app'],
    ]);
    expect(cause?.runRefs).toContain(patterns[1].ordinal);
    // No count of every workload's errors was needed.
    expect(runs.some((r) => r.tool === 'loki.query_range')).toBe(false);

    // checkout's error there all along is stated and ruled out; payments' and frontend's are not causes.
    const ruledOut = conclusion.findings.filter((f) => f.kind === 'ruled_out').map((f) => f.statement);
    expect(ruledOut.some((s) => s.includes('payment provider timed out') && s.includes('there all along'))).toBe(true);
    const causes = conclusion.findings.filter((f) => f.kind === 'cause').map((f) => f.statement);
    expect(causes.join(' ')).not.toMatch(/card declined|frontend/);
  }, 120_000);

  it('names the workload whose error multiplied at the onset when no error began then, from where the errors rose most', async () => {
    const multiplied = await LokiStandIn.start({ entries: logs(page.labels.namespace, staged!.end, { allAlong: true }) });
    try {
      const session = directSession(staged!.prometheus.url, page, [], DEFAULT_BUDGETS, undefined, { url: multiplied.url });
      const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

      const cause = conclusion.findings.find((f) => f.kind === 'cause');
      expect(cause?.statement).toMatch(/^New errors in the logs of inventory from \S+, `.*stock reservation failed.*`, caused the alert's condition$/);
      expect(cause?.mechanism).toMatch(/against [\d.]+ a minute before/);
      // Ranked after frontend, whose rising errors name it.
      expect(cause?.mechanism).toMatch(/a minute from \S+, after frontend \(its errors name inventory\)$/);

      const runs = session.runs;
      const sweep = runs.find((r) => r.tool === 'loki.query_range');
      expect(sweep?.arguments.query).toMatch(/^sum by \(app\) \(count_over_time\(\{namespace="shop"\} \|~ ".*" \[1m\]\)\)$/);
      const patterns = runs.filter((r) => r.tool === 'loki.log_patterns').map((r) => r.arguments.selector);
      // checkout's own, the namespace's (no error of a workload's own began), then the two workloads whose errors rose most.
      expect(patterns).toEqual([
        '{namespace="shop", app="checkout"}',
        '{namespace="shop"}',
        '{namespace="shop", app="frontend"}',
        '{namespace="shop", app="inventory"}',
      ]);
      const inventory = runs.find((r) => r.tool === 'loki.log_patterns' && r.arguments.selector === '{namespace="shop", app="inventory"}')!;
      expect(cause?.runRefs).toEqual(expect.arrayContaining([inventory.ordinal, sweep!.ordinal]));
    } finally {
      await multiplied.close();
    }
  }, 120_000);

  /** A conversation turn about the incident, answered by the built-in reasoner from the same Prometheus and Loki. */
  const ask = async (message: string, withLoki = true) => {
    const session = directSession(staged!.prometheus.url, page, [], undefined, { message }, withLoki ? { url: loki!.url } : undefined);
    const answered = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    return { answered, runs: session.runs };
  };

  it('answers what the logs of a workload say: the error that began with the incident, with its rate and first line', async () => {
    const { answered, runs } = await ask('what do the logs of inventory say?');
    expect(answered.conclusionStatus).toBe('answer_only');
    expect(answered.summary).toMatch(
      /^One error began in the logs of inventory with the incident: `.*stock reservation failed.*` from \d\d:\d\d UTC \(\d+ lines, [\d.]+\/min\)/,
    );
    expect(answered.summary).toContain('| template | since the incident began | before | after | first seen |');
    expect(answered.summary).toContain('Its first line: `level=error msg="stock reservation failed: NullPointerException');
    const read = runs.find((r) => r.tool === 'loki.log_patterns')!;
    expect(read.arguments.selector).toBe('{namespace="shop", app="inventory"}');
    expect(answered.findings.every((f) => f.runRefs.includes(read.ordinal))).toBe(true);
  }, 60_000);

  it("answers for the incident's own workload when the question names none, and says when no log store is connected", async () => {
    const { answered } = await ask('anything in the logs?');
    expect(answered.summary).toMatch(/^No error began in the logs of checkout with the incident: what they report was there before it/);
    expect(answered.summary).toMatch(/\| `level=error msg="payment provider timed out" order=<num>` \| as often as before \|/);

    const without = await ask('what do the logs of inventory say?', false);
    expect(without.answered.summary).toBe('No Loki integration is connected, so the logs cannot be read.');
    expect(without.answered.limitations.map((l) => l.type)).toEqual(['missing_telemetry']);
  }, 60_000);
});

/** checkout's errors stay usual; payments, which checkout calls, answers four times slower from ERRORS_AGO minutes before the end, without failing. */
const slowSearch: Scenario = {
  name: 'checkout-raised-by-hand-payments-slower',
  family: 'configuration',
  story: 'A customer reports failed orders; inventory began throwing then; payments slowed at the same time, failing nothing.',
  redHerrings: ['a rise of the latency of a dependency that fails nothing'],
  seed: 139,
  build(end) {
    const c = shop(end, this.seed, { workloads: ['checkout', 'payments', 'inventory'] });
    const from = c.ago(ERRORS_AGO);
    c.workload('payments').effects = { latency: (t) => (t >= from ? 4 : 1) };
    return c;
  },
  rule,
  truth: { values: [['inventory']], series: /./ },
};

/**
 * An alert raised by hand (its rule's condition never held): a rise of another service's latency
 * passes its test by preceding the alert alone, so the logs are read too, and the workload that
 * began writing an error of its own comes first.
 */
describe('errors in the logs, for an alert raised by hand', () => {
  let staged: StagedPrometheus | undefined;
  let loki: LokiStandIn | undefined;

  afterAll(async () => {
    await staged?.stop();
    await loki?.close();
  });

  it('states the new error of a workload before a latency rise of a dependency that merely preceded the alert', async () => {
    staged = await stagePrometheus(slowSearch);
    expect(await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end)).toEqual([]);
    const at = staged.end - (ERRORS_AGO - 4) * MINUTE;
    const page: DerivedAlert = {
      rule,
      labels: { alertname: rule.alert, namespace: 'shop', job: 'checkout', severity: 'critical' },
      annotations: { summary: 'Raised by hand: customers report failed orders' },
      activeAt: at,
      firedAt: at,
      resolvedAt: null,
    };
    loki = await LokiStandIn.start({ entries: logs('shop', staged.end) });
    // Both the ranking of the dependencies' changes and the logs are read: more runs than the default 24 leave after the shop's exporters.
    const session = directSession(staged.prometheus.url, page, [], { ...DEFAULT_BUDGETS, toolRuns: 40 }, undefined, { url: loki.url });
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    expect(conclusion.limitations.map((l) => l.statement).join(' ')).toMatch(/onset is taken from the alert itself/);
    const causes = conclusion.findings.filter((f) => f.kind === 'cause').map((f) => f.statement);
    expect(causes[0]).toMatch(/^New errors in the logs of inventory from /);
    expect(causes.slice(1).join(' ')).toMatch(/latency of payments/);
  }, 120_000);
});

/** checkout fails a tenth of its requests from ERRORS_AGO minutes before the end, and payments, which it calls, answers four times slower from then, failing nothing. */
const slowAndFailing: Scenario = {
  ...scenario,
  name: 'checkout-errors-payments-slower',
  story: 'inventory began throwing on every reservation; checkout fails the orders that reserve stock; payments slowed at the same time, failing nothing.',
  redHerrings: ['a rise of the latency of a dependency that fails nothing'],
  seed: 141,
  build(end) {
    const c = scenario.build.call(this, end);
    const from = c.ago(ERRORS_AGO);
    c.workload('payments').effects = { latency: (t) => (t >= from ? 4 : 1) };
    return c;
  },
};

/**
 * A paged alert whose metrics show a dependency's latency rise alone: the logs are read too, and
 * an error that began with the onset in a workload's own logs is stated before the latency rise.
 */
describe('errors in the logs, past a latency rise alone', () => {
  let staged: StagedPrometheus | undefined;
  let loki: LokiStandIn | undefined;

  afterAll(async () => {
    await staged?.stop();
    await loki?.close();
  });

  it('states the error that began in the logs before a rise of the latency of a dependency that fails nothing', async () => {
    staged = await stagePrometheus(slowAndFailing);
    const alerts = await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end);
    expect(alerts).toHaveLength(1);
    loki = await LokiStandIn.start({ entries: logs('shop', staged.end) });
    // Both the ranking of the dependencies' changes and the logs are read: more runs than the default 24 leave after the shop's exporters.
    const session = directSession(staged.prometheus.url, alerts[0], [], { ...DEFAULT_BUDGETS, toolRuns: 40 }, undefined, { url: loki.url });
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const causes = conclusion.findings.filter((f) => f.kind === 'cause').map((f) => f.statement);
    console.log(
      causes,
      conclusion.hypotheses.map((h) => [h.status, h.statement]),
    );
    expect(causes[0]).toMatch(/^New errors in the logs of inventory from /);
    expect(causes.slice(1).join(' ')).toMatch(/latency of payments/);
  }, 120_000);
});
