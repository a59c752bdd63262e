import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startApi, TestApi } from '../support/api';
import { bootstrap } from '../support/factories';
import { untilWaitingForLock } from '../support/lock-waits';
import { until } from '../support/until';

/**
 * A batch of deliveries is one transaction: when its last statement (the delivery records) fails,
 * nothing of the batch may stay, neither events nor alert states nor incident counts. A trigger
 * makes the record of one delivery fail; the others of its batch are then admitted one by one,
 * and that one is refused with 503 and leaves no trace. The API's /metrics shows each batch's
 * size and outcome, and how many deliveries wait for the next batch.
 */
describe('a batch whose last statements fail commits nothing', () => {
  let api: TestApi;
  let integration: { id: string; secret: string };

  beforeAll(async () => {
    api = await startApi();
    const { admin } = await bootstrap(api);
    const created = await admin.post('/api/v1/integrations', { type: 'generic', name: 'Atomic' });
    integration = { id: created.body.id, secret: created.body.webhookSecret };
    await api.dataSource.query(`
      CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.body LIKE '%"seq":"poison"%' THEN RAISE EXCEPTION 'poisoned delivery record'; END IF;
        RETURN NEW;
      END $$`);
    await api.dataSource.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
  });
  afterAll(async () => {
    await api?.close();
  });

  const send = (seq: string) =>
    new Client(api.baseUrl).request('POST', `/webhooks/v1/integrations/${integration.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'Atomic', service: 'svc', seq }, startsAt: '2026-11-22T02:00:00Z' }] },
      headers: { 'x-svc-token': integration.secret },
      origin: false,
    });

  /** The value of one series on the API's /metrics (0 while it has none). */
  const metric = async (series: string): Promise<number> => {
    const text = (await new Client(api.baseUrl).get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  const failedBatches = async () => ({
    batches: await metric('alert_admission_batch_deliveries_count{outcome="failed"}'),
    deliveries: await metric('alert_admission_batch_deliveries_sum{outcome="failed"}'),
  });

  it('stores the events, states, counts and records of the deliveries answered 202, and nothing of the refused one', async () => {
    const seqs = Array.from({ length: 24 }, (_, i) => (i === 12 ? 'poison' : `s${i}`));
    const [opening, held, ...together] = seqs;
    // The first delivery opens the incident the others go to.
    const opened = await send(opening);
    expect(opened.status).toBe(202);
    const failedBefore = await failedBatches();

    // With the incident locked, the next delivery's batch waits for it, and the others (the
    // poisoned one among them) wait for the batch after it: the poisoned delivery shares that batch.
    const holder = api.dataSource.createQueryRunner();
    await holder.connect();
    let answers: Awaited<ReturnType<typeof send>>[];
    try {
      await holder.startTransaction();
      await holder.query('SELECT 1 FROM incidents WHERE id = $1 FOR UPDATE', [opened.body.incidentIds[0]]);
      const waitingForLock = send(held);
      await untilWaitingForLock(api.dataSource);
      const waitingForBatch = together.map((seq) => send(seq));
      await until(async () => (await metric('alert_admission_waiting_deliveries')) === together.length, 30_000, 'the deliveries waiting for the next batch');
      await holder.commitTransaction();
      answers = await Promise.all([opened, waitingForLock, ...waitingForBatch]);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }

    const status = new Map(seqs.map((seq, i) => [seq, answers[i].status]));
    expect(status.get('poison')).toBe(503);
    const admitted = seqs.filter((s) => s !== 'poison');
    expect(admitted.map((s) => status.get(s))).toEqual(admitted.map(() => 202));
    // One batch failed, and it held every delivery that waited for it, the poisoned one and 21 others.
    expect(await failedBatches()).toEqual({ batches: failedBefore.batches + 1, deliveries: failedBefore.deliveries + together.length });

    const events = (await api.dataSource.query(`SELECT labels->>'seq' AS seq FROM alert_events WHERE integration_id = $1`, [integration.id])) as {
      seq: string;
    }[];
    expect(events.map((e) => e.seq).sort()).toEqual([...admitted].sort());
    const records = (await api.dataSource.query(`SELECT status_code FROM webhook_deliveries WHERE integration_id = $1`, [integration.id])) as {
      status_code: number;
    }[];
    expect(records.map((r) => r.status_code)).toEqual(admitted.map(() => 202));
    const [incident] = (await api.dataSource.query(`SELECT alert_count, firing_count FROM incidents WHERE integration_id = $1`, [integration.id])) as {
      alert_count: number;
      firing_count: number;
    }[];
    expect(incident).toEqual({ alert_count: admitted.length, firing_count: admitted.length });
    const states = (await api.dataSource.query(
      `SELECT count(*)::int AS n FROM incident_alerts a JOIN incidents i ON i.id = a.incident_id WHERE i.integration_id = $1`,
      [integration.id],
    )) as { n: number }[];
    expect(states[0].n).toBe(admitted.length);
  }, 60_000);
});
