import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, describe, expect, it } from 'vitest';
import { ChangesService } from '@svc/changes';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { until } from '../support/until';
import { startInProcessWorker } from '../support/worker';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

/**
 * Changes are kept per the Policy's `retention.changeDays` (default 90) and deleted by the
 * worker, with the calls between services no investigation saw for as long.
 */
describe('change retention', () => {
  const ctx = useBootstrappedApi();
  let worker: { close: () => Promise<void> } | undefined;

  afterAll(async () => {
    await worker?.close();
  });

  async function report(headers: Record<string, string>, changes: Array<{ id: string; days: number }>): Promise<void> {
    const integration = (await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Deploys' }, { headers })).body;
    const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.id}/change-events`, {
      body: { changes: changes.map((c) => ({ id: c.id, summary: `Change ${c.id}`, kind: 'deploy', service: 'checkout', timestamp: daysAgo(c.days) })) },
      headers: { 'x-svc-token': integration.webhookSecret },
      origin: false,
    });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(changes.length);
  }

  const listed = async (headers: Record<string, string>) =>
    ((await ctx.admin.get('/api/v1/changes?limit=200', { headers })).body.items as Array<{ externalId: string }>).map((c) => c.externalId).sort();

  it("the worker deletes the changes older than their Organization's Policy keeps them, and no others", async () => {
    const acme = { 'x-svc-organization': 'acme' };
    const policy = (await ctx.admin.get('/api/v1/policy', { headers: acme })).body;
    expect((await ctx.admin.put('/api/v1/policy', { ...policy, retention: { changeDays: 30 } }, { headers: acme })).status).toBe(200);
    await report(acme, [
      { id: 'old', days: 40 },
      { id: 'older', days: 400 },
      { id: 'recent', days: 20 },
    ]);
    // Another Organization with the default (90 days) keeps a change of the same age.
    await ctx.admin.post('/api/v1/organizations', { id: 'keeper', displayName: 'Keeper' });
    const keeper = { 'x-svc-organization': 'keeper' };
    await report(keeper, [
      { id: 'old', days: 40 },
      { id: 'ancient', days: 100 },
    ]);

    // Calls between services, as investigations record them: one last seen 40 days ago in each.
    const changes = ctx.api.app.get(ChangesService, { strict: false });
    for (const organizationId of ['acme', 'keeper'])
      await changes.recordCalls(organizationId, { integrationId: randomUUID(), investigationId: randomUUID() }, [
        { caller: 'checkout', callee: 'ledger' },
        { caller: 'checkout', callee: 'fraud' },
      ]);
    await ctx.api.app.get(DataSource).query(`UPDATE service_calls SET last_seen_at = now() - interval '40 days' WHERE callee_key = 'ledger'`);

    worker = await startInProcessWorker();
    await until(async () => (await listed(acme)).length === 1 && (await listed(keeper)).length === 1, 30_000, 'the retention sweep');
    expect(await listed(acme)).toEqual(['generic:recent']);
    expect(await listed(keeper)).toEqual(['generic:old']);
    expect(await changes.dependenciesOf('acme', ['checkout'])).toEqual(['fraud']);
    expect(await changes.dependenciesOf('keeper', ['checkout'])).toEqual(['fraud', 'ledger']);
  });
});
