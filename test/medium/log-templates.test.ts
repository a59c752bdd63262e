import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRun, SourceBrief, ToolCall } from '@svc/investigations';
import { detectionScopeOf, explainCauses, logTemplatesExplainer } from '@svc/investigations/engine';
import { DataSourceConnection, ToolCatalog } from '@svc/investigations/tools';
import { Timestamp } from '@svc/platform';
import { shopLogs } from '../support/loki-scenario';
import { LokiEntry, LokiStandIn } from '../support/loki-stand-in';
import { recordRun, sessionOf } from '../support/scripted-prometheus';

const LOKI: SourceBrief = { integrationId: '0190a0b0-0000-7000-8000-0000000000c1', type: 'loki', name: 'logs' } as SourceBrief;
const END = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const ONSET = new Date(END.getTime() - 20 * 60_000);
const WINDOW = { from: Timestamp.fromDate(new Date(END.getTime() - 3_600_000)), until: Timestamp.fromDate(END) };

/** Checkout's shop logs, with an error it wrote every two minutes all along: a payment provider timing out. */
function withOldError(onset: Date, end: Date): LokiEntry[] {
  const entries = shopLogs(onset, end);
  const labels = { namespace: 'shop', app: 'checkout', pod: 'checkout-7d9f8b-x2k4' };
  for (let t = end.getTime() - 3_600_000 + 11_000, i = 0; t < end.getTime(); t += 120_000, i++)
    entries.push({ at: BigInt(t) * 1_000_000n + 456n, labels, line: `level=error msg="payment provider timed out" provider=acme order=${5000 + i}` });
  return entries;
}

/** Checkout's shop logs, where from the onset its calls to inventory (a workload with logs of its own) fail. */
function callingInventory(onset: Date, end: Date): LokiEntry[] {
  const entries = shopLogs(onset, end).filter((e) => !e.line.includes('inventory-db'));
  const labels = { namespace: 'shop', app: 'checkout', pod: 'checkout-7d9f8b-x2k4' };
  for (let t = onset.getTime() + 5_000, i = 0; t < end.getTime(); t += 12_000, i++)
    entries.push({ at: BigInt(t) * 1_000_000n + 321n, labels, line: `level=error msg="GET http://inventory:8080/api/stock/${300 + i} failed" status=503` });
  return entries;
}

/**
 * The log explainer against the Loki stand-in (Loki's HTTP API), through the real tool catalog:
 * which labels the streams carry, then the templates of the alerting workload's lines around the
 * onset. No Prometheus is read: logs are a source of their own.
 */
describe('new log templates', () => {
  const catalog = new ToolCatalog();
  let loki: LokiStandIn;

  beforeAll(async () => {
    loki = await LokiStandIn.start({
      tenants: {
        shop: withOldError(ONSET, END),
        files: [{ at: BigInt(ONSET.getTime()) * 1_000_000n, labels: { filename: '/var/log/app.log' }, line: 'level=error msg="boom"' }],
        calls: callingInventory(ONSET, END),
      },
    });
  });
  afterAll(() => loki?.close());

  const explain = (alert: Record<string, string>, tenant = 'shop') => {
    const connection: DataSourceConnection = { integrationId: LOKI.integrationId, type: 'loki', baseUrl: loki.url, headers: { 'x-scope-orgid': tenant } };
    const run = async (call: ToolCall, runs: RecordedRun[]): Promise<RecordedRun> => {
      const result = await catalog.run(call.tool, call.arguments, { connection, window: WINDOW, signal: new AbortController().signal });
      return Object.assign(recordRun(runs, call, result.output, result.summary), { outcome: result.outcome, error: result.error ?? null });
    };
    const session = sessionOf(WINDOW, [LOKI], run);
    return explainCauses(session, null, detectionScopeOf([alert], Timestamp.fromDate(ONSET), false), [logTemplatesExplainer]).then((found) => ({
      found,
      runs: session.runs,
    }));
  };

  it('names the error the alerting workload began to write at the onset, and rules out the one it wrote all along', async () => {
    const { found, runs } = await explain({ alertname: 'CheckoutHighErrorRate', namespace: 'shop', service: 'checkout' });
    expect(runs.map((r) => [r.tool, r.outcome])).toEqual([
      ['loki.labels', 'succeeded'],
      ['loki.log_patterns', 'succeeded'],
      ['loki.label_values', 'succeeded'],
    ]);
    expect(runs[1].arguments.selector).toBe('{namespace="shop", app="checkout"}');
    // The workloads, to tell whether the error names one: inventory-db is not inventory.
    expect(runs[2].arguments).toEqual({ label: 'app', query: '{namespace="shop"}' });
    const [fresh, old] = found.causes;
    expect(fresh.id).toBe('h-log-template');
    expect(fresh.statement).toMatch(/^A new error in the logs of checkout from .*connection refused.*caused the alert's condition$/);
    expect(fresh.at.epochMicros - Timestamp.fromDate(ONSET).epochMicros).toBe(10_000_000n);
    expect(fresh.refuted).toBeUndefined();
    expect(fresh.mechanismRuns).toEqual([2]);
    expect(fresh.unexplained).toHaveLength(1);
    expect(old.statement).toContain('payment provider timed out');
    expect(old.refuted).toMatchObject({ runs: [2] });
    expect(old.refuted!.because).toMatch(/there all along$/);
    // The warning of slow queries, there all along too, reports no trouble: it is neither.
    expect(found.causes.map((c) => c.statement).join(' ')).not.toContain('slow query');
  });

  it('finds nothing new in the logs of a workload whose lines did not change', async () => {
    const { found, runs } = await explain({ alertname: 'InventorySlow', namespace: 'shop', service: 'inventory' });
    expect(runs[1].arguments.selector).toBe('{namespace="shop", app="inventory"}');
    expect(found.causes).toEqual([]);
  });

  it('makes an error that names another workload evidence for that dependency', async () => {
    const { found, runs } = await explain({ alertname: 'CheckoutHighErrorRate', namespace: 'shop', service: 'checkout' }, 'calls');
    expect(runs.map((r) => r.tool)).toEqual(['loki.labels', 'loki.log_patterns', 'loki.label_values']);
    const [cause] = found.causes;
    expect(cause.statement).toMatch(/^inventory failing the calls of checkout from \S+, `.*failed.*`, caused the alert's condition$/);
    expect(cause.peer).toBe('inventory');
    expect(cause.chainRuns).toEqual([1, 3]);
    expect(cause.unexplained).toEqual(['why inventory failed the calls of checkout from then on']);
  });

  it('says so when the log streams carry none of the labels that name the workload', async () => {
    const { found, runs } = await explain({ alertname: 'CheckoutHighErrorRate', namespace: 'shop', service: 'checkout' }, 'files');
    expect(runs.map((r) => r.tool)).toEqual(['loki.labels']);
    expect(found.causes).toEqual([]);
    expect(found.limitations.map((l) => l.statement)).toEqual([
      'The logs of checkout could not be selected: the log streams carry none of its labels (filename)',
    ]);
  });
});
