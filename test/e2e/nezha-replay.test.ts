import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataset } from '../../eval/nezha/dataset';
import { dayAlerts, FaultResult, replayFault, RULE } from '../../eval/nezha/replay';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Two faults of the Nezha TrainTicket days replayed as `npm run eval -- --suite=nezha-trainticket`
 * does: the recorded metrics up to the page backfilled into a real Prometheus, the rule's alerts
 * delivered to the webhook as Alertmanager would, and an investigation worked by the real worker.
 * Only what does not depend on the reasoner's skill is asserted: the suite scores that.
 */
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

  const replay = async (id: string): Promise<FaultResult> => {
    const fault = dataset.faults.find((f) => f.id === id)!;
    const alerts = await dayAlerts(
      dataset,
      dataset.days.find((d) => d.day === fault.day)!,
    );
    return replayFault(ctx.admin, dataset, fault, alerts, {
      baseUrl: ctx.api.baseUrl,
      ended: (investigation) => investigationEnded(ctx.admin, investigation, { timeoutMs: 60_000 }),
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
    // The investigation read the rule's expression over the recorded series.
    expect(result.runs.some((r) => JSON.stringify(r.arguments).includes('http_server_request_duration_seconds'))).toBe(true);
    expect(RULE.alert).toBe('ServiceLatencyHigh');
  }, 120_000);

  it('investigates the page of a network delay', async () => {
    const result = await replay('2023-01-30-1344-ts-route-service');
    investigatedWithoutError(result);
    expect(result.fault.kind).toBe('network');
  }, 120_000);
});
