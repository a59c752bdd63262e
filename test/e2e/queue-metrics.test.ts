import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * The worker autoscaler reads the investigations queue's depth from the API's /metrics: jobs
 * committed while no worker runs show there (in the outbox, not yet on the queue), and once a
 * worker has moved and run them, the depth is back to nothing.
 */
describe('queue depth on /metrics', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker | undefined;

  afterAll(async () => {
    await worker?.close();
  });

  /** The investigations queue's jobs by state, as /metrics shows them. */
  const depth = async (): Promise<Record<string, number>> => {
    const text = (await new Client(ctx.api.baseUrl).get('/metrics')).text;
    const states: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const match = /^svc_queue_jobs\{queue="investigations",state="(\w+)"\} (\d+)$/.exec(line);
      if (match) states[match[1]] = Number(match[2]);
    }
    return states;
  };

  it('counts the investigations waiting for a worker, and nothing once a worker has run them', async () => {
    const hook = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Queue depth alerts' });
    const investigations: string[] = [];
    for (const n of [1, 2, 3]) {
      const delivered = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${hook.body.id}/alert-events`, {
        body: { alerts: [{ labels: { alertname: `QueueDepth${n}`, service: 'depth' }, startsAt: new Date().toISOString() }] },
        headers: { 'x-svc-token': hook.body.webhookSecret },
        origin: false,
      });
      expect(delivered.status).toBe(202);
      const opened = await ctx.admin.post('/api/v1/investigations', { incidentId: delivered.body.incidentIds[0] });
      expect(opened.status).toBe(201);
      investigations.push(opened.body.id);
    }
    // No worker yet: the jobs are committed and wait in the outbox.
    expect(await depth()).toEqual({ outbox: 3, waiting: 0, active: 0, delayed: 0 });

    worker = await startWorker();
    for (const id of investigations) await investigationEnded(ctx.admin, id, { timeoutMs: 60_000 });
    await until(
      async () => {
        const states = await depth();
        return states.outbox === 0 && states.waiting === 0 && states.active === 0;
      },
      20_000,
      'the queue to be empty',
    );
    expect(await depth()).toEqual({ outbox: 0, waiting: 0, active: 0, delayed: 0 });
  }, 120_000);
});
