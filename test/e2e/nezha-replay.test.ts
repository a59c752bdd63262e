import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../eval/nezha/dataset';
import { loadLogs } from '../../eval/nezha/logs';
import { dayAlerts, ENTRY_SERVICE, faultLogs, FaultResult, HAND_PAGE_AFTER_SECONDS, pageOf, replayFault, RULE, stageFault } from '../../eval/nezha/replay';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Faults of the Nezha TrainTicket days replayed as `npm run eval -- --suite=nezha-trainticket`
 * does: the recorded metrics up to the page backfilled into a real Prometheus, the rule's alerts
 * delivered to the webhook as Alertmanager would (or, for a fault the rule never paged for, the
 * page raised by hand for the entry service), and an investigation worked by the real worker.
 * Only what does not depend on the reasoner's skill is asserted: the suite scores that.
 */
/** The entry service's recorded p90 latency, which the rule reads. */
const P90_OF_ENTRY = `http_server_request_duration_seconds{quantile="0.9", service="${ENTRY_SERVICE}"}`;

describe('the reasoner on recorded TrainTicket faults', () => {
  const ctx = useBootstrappedApi();
  const dataset = loadDataset();
  let worker: TestWorker;

  beforeAll(async () => {
    // The first e2e file to start a process builds dist/.
    worker = await startWorker();
  }, 240_000);

  afterAll(async () => {
    await worker?.close();
  });

  const replay = async (id: string, withLogs = false): Promise<FaultResult> => {
    const fault = dataset.faults.find((f) => f.id === id)!;
    const alerts = await dayAlerts(
      dataset,
      dataset.days.find((d) => d.day === fault.day)!,
    );
    return replayFault(ctx.admin, dataset, fault, alerts, {
      baseUrl: ctx.api.baseUrl,
      ended: (investigation) => investigationEnded(ctx.admin, investigation, { timeoutMs: 60_000 }),
      ...(withLogs ? { logs: loadLogs() } : {}),
    });
  };

  const investigatedWithoutError = (result: FaultResult): void => {
    expect(result.error).toBeNull();
    expect(result.investigationId).not.toBeNull();
    expect(['concluded', 'partial']).toContain(result.status);
    expect(result.alerted.length).toBeGreaterThan(0);
    expect(result.runs.some((r) => r.tool === 'prometheus.query_range' && r.outcome === 'succeeded')).toBe(true);
    expect(result.citationsExist).toBe(true);
  };

  it('investigates the page of a CPU contention, the rule having fired on the recorded latency', async () => {
    const result = await replay('2023-01-29-1449-ts-food-service');
    investigatedWithoutError(result);
    expect(result.paged).toBe(true);
    // The investigation read the rule's expression over the recorded series.
    expect(result.runs.some((r) => JSON.stringify(r.arguments).includes('http_server_request_duration_seconds'))).toBe(true);
    expect(RULE.alert).toBe('ServiceLatencyHigh');
  }, 120_000);

  it('investigates the page of a network delay', async () => {
    const result = await replay('2023-01-30-1344-ts-route-service');
    investigatedWithoutError(result);
    expect(result.paged).toBe(true);
    expect(result.fault.kind).toBe('network');
  }, 120_000);

  it("replays a code fault with its pods' logs in a Loki, up to the page, which the investigation reads", async () => {
    const id = '2023-01-29-0843-ts-contacts-service';
    const fault = dataset.faults.find((f) => f.id === id)!;
    const staging = await stageFault(
      dataset,
      fault,
      await dayAlerts(
        dataset,
        dataset.days.find((d) => d.day === fault.day)!,
      ),
    );
    await staging.staged.stop();
    const entries = faultLogs(loadLogs(), dataset, fault, staging);
    expect(entries.length).toBeGreaterThan(1000);
    // Shifted as the metrics are: from the first staged moment up to the page, none after it.
    const ns = (seconds: number) => BigInt(seconds) * 1_000_000_000n;
    expect(entries.every((e) => (e.at as bigint) >= ns(staging.from + staging.shift) && (e.at as bigint) <= ns(staging.page.firedAt))).toBe(true);
    expect(new Set(entries.map((e) => e.labels.service_name))).toContain('ts-contacts-service');

    const result = await replay(id, true);
    investigatedWithoutError(result);
    const read = result.runs.filter((r) => r.tool.startsWith('loki.'));
    expect(read.map((r) => r.tool)).toContain('loki.log_patterns');
    expect(read.every((r) => r.outcome === 'succeeded')).toBe(true);
  }, 120_000);

  /** A network delay the rule never paged for. */
  const NEVER_PAGED = '2023-01-30-1252-ts-food-service';

  it('stages a fault the rule never paged for up to a page raised by hand for the entry service, where the rule does not hold', async () => {
    const fault = dataset.faults.find((f) => f.id === NEVER_PAGED)!;
    const alerts = await dayAlerts(
      dataset,
      dataset.days.find((d) => d.day === fault.day)!,
    );
    expect(pageOf(fault, alerts)).toBeUndefined();
    const staging = await stageFault(dataset, fault, alerts);
    try {
      expect(staging.paged).toBe(false);
      expect(staging.after).toBe(HAND_PAGE_AFTER_SECONDS);
      expect(staging.page.labels).toEqual({ namespace: 'train-ticket', service: ENTRY_SERVICE, severity: 'warning', alertname: RULE.alert });
      // The data ends at the page, shifted to now; the rule's condition does not hold for the entry service there.
      const url = staging.staged.prometheus.url;
      const at = staging.page.firedAt;
      const query = async (expr: string): Promise<unknown[]> => {
        const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr, time: String(at) })}`);
        return ((await res.json()) as { data: { result: unknown[] } }).data.result;
      };
      expect(await query(`${P90_OF_ENTRY}`)).not.toEqual([]);
      expect(await query(`(${RULE.expr}) and on (service) ${P90_OF_ENTRY}`)).toEqual([]);
    } finally {
      await staging.staged.stop();
    }
  }, 120_000);

  it('investigates a fault the rule never paged for, from the page raised by hand', async () => {
    const result = await replay(NEVER_PAGED);
    investigatedWithoutError(result);
    expect(result.paged).toBe(false);
    expect(result.alerted).toContain(ENTRY_SERVICE);
  }, 120_000);
});
