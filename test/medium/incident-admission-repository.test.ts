import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_BATCH_TYPES, ALERT_BATCH_UNPLACED, alertBatchArguments, BatchAlert, IncidentAdmissionRepository, NewAlertEvent } from '@svc/incidents';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';
import { untilWaitingForLock } from '../support/lock-waits';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['incidents', 'alert_events', 'incident_alerts'];
const T1 = Timestamp.parse('2026-11-20T10:00:00Z')!;
const T2 = Timestamp.parse('2026-11-20T11:00:00Z')!;

/** Thrown to roll a test's transaction back. */
class Rollback extends Error {}

/**
 * Both Organizations hold alerts of the same integration id (incidents do not reference integrations), an incident with the same id (SHARED, group
 * g-shared) and an incident of their own in group g-own; only B has group g-b-only and alert
 * f-b-only. Every statement runs for A and must neither read nor change a row of B. Every test
 * starts from these rows as they are described (written anew before each test), whatever the
 * tests before it wrote for A.
 */
describe('IncidentAdmissionRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: IncidentAdmissionRepository;
  const integrationId = newId();
  const shared = newId();
  const own: Record<string, string> = { [A]: newId(), [B]: newId() };
  const bOnly = newId();
  const batchIntegration = newId();
  const batchShared = newId();
  const batchOwn: Record<string, string> = { [A]: newId(), [B]: newId() };
  let before: Record<string, unknown[]>;

  async function incident(org: string, id: string, groupKey: string, integration = integrationId): Promise<void> {
    await dataSource.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at, alert_count, firing_count)
      VALUES ($1, $2, $3, $4, 'open', 'T', '{}', $5, 1, 1)`,
      [org, id, integration, groupKey, T1],
    );
  }
  async function event(org: string, incidentId: string, fingerprint: string, integration = integrationId): Promise<void> {
    await dataSource.query(
      `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, phase_at)
      VALUES ($1, $2, $3, $4, $5, $6, 'firing', '{}', '{}', $7, $7)`,
      [org, newId(), incidentId, integration, newId(), fingerprint, T1],
    );
    await dataSource.query(`INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at) VALUES ($1, $2, $3, 'firing', $4)`, [
      org,
      incidentId,
      fingerprint,
      T1,
    ]);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new IncidentAdmissionRepository(dataSource);
    for (const org of [B, A]) await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
  });
  beforeEach(async () => {
    for (const table of ['incident_alerts', 'alert_events', 'incidents']) await dataSource.query(`DELETE FROM ${table}`);
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await incident(org, shared, 'g-shared');
      await incident(org, own[org], 'g-own');
      await event(org, shared, 'f1');
      await event(org, own[org], 'f2');
    }
    await incident(B, bOnly, 'g-b-only');
    await event(B, shared, 'f-b-only');
    // The same again for the batch tests, under a second integration (phases and groups are per integration).
    for (const org of [B, A]) {
      await incident(org, batchShared, 'g-shared', batchIntegration);
      await incident(org, batchOwn[org], 'g-own', batchIntegration);
      await event(org, batchShared, 'f1', batchIntegration);
      await event(org, batchOwn[org], 'f2', batchIntegration);
    }
    await incident(B, newId(), 'g-b-only', batchIntegration);
    await event(B, batchShared, 'f-b-only', batchIntegration);
    before = await organizationRows(dataSource, B, TABLES);
  });
  afterAll(async () => {
    expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);
    await dataSource?.destroy();
    await db?.drop();
  });
  const bUnchanged = async (): Promise<void> => expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);
  const newEvent = (fingerprint: string, incidentId: string): Omit<NewAlertEvent, 'organizationId'> => ({
    id: newId(),
    incidentId,
    integrationId,
    deliveryId: newId(),
    fingerprint,
    status: 'firing',
    labels: {},
    annotations: {},
    startsAt: T1,
    endsAt: null,
    phaseAt: T1,
    generatorUrl: null,
    receivedAt: T1,
  });

  const batchAlert = (fingerprint: string, groupKey: string, status: 'firing' | 'resolved', phaseAt: Timestamp, openedId = newId()): BatchAlert => ({
    ...newEvent(fingerprint, newId()),
    organizationId: A,
    integrationId: batchIntegration,
    status,
    phaseAt,
    groupKey,
    groupLabels: {},
    title: status === 'firing' ? 'T' : null,
    openedId,
  });
  const admitBatch = async (
    alerts: BatchAlert[],
    manager = dataSource.manager,
  ): Promise<Array<{ alert_n: number; alert_incident_id: string; alert_outcome: string }>> =>
    (await manager.query(
      `SELECT * FROM admit_alert_batch(${ALERT_BATCH_TYPES.map((type, i) => `$${i + 1}::${type}`).join(', ')}) ORDER BY alert_n`,
      alertBatchArguments(alerts),
    )) as Array<{ alert_n: number; alert_incident_id: string; alert_outcome: string }>;

  it("storedPhase finds only the Organization's phases", async () => {
    const key = { integrationId, status: 'firing' as const, phaseAt: T1 };
    expect(await repository.storedPhase(A, { fingerprint: 'f-b-only', ...key })).toBeUndefined();
    expect(await repository.storedPhase(A, { fingerprint: 'f2', ...key })).toBe(own[A]);
    await bUnchanged();
  });

  it("admit_alert_batch sets aside, opens, locks and writes only the Organization's, where the other has the same phases and incident ids", async () => {
    const opened = newId();
    await dataSource.transaction(async (manager) => {
      const outcomes = await admitBatch(
        [
          // A stored this phase itself: a retry.
          batchAlert('f2', 'g-own', 'firing', T1),
          // Only B stored this phase, and only B has an open incident of g-b-only: A's is opened.
          batchAlert('f-b-only', 'g-b-only', 'firing', T1, opened),
          // A's incident of g-shared has the id of B's: only A's resolves.
          batchAlert('f1', 'g-shared', 'resolved', T2),
        ],
        manager,
      );
      expect(outcomes).toEqual([
        { alert_n: 1, alert_incident_id: batchOwn[A], alert_outcome: 'stored' },
        { alert_n: 2, alert_incident_id: opened, alert_outcome: 'accepted' },
        { alert_n: 3, alert_incident_id: batchShared, alert_outcome: 'accepted' },
      ]);
      expect(await lockable(dataSource, 'incidents', B)).toBe(true);
    });
    const incidents = await dataSource.query(
      `SELECT id, group_key, status, alert_count, firing_count FROM incidents WHERE organization_id = $1 AND id = ANY($2) ORDER BY group_key`,
      [A, [opened, batchShared]],
    );
    expect(incidents).toEqual([
      { id: opened, group_key: 'g-b-only', status: 'open', alert_count: 1, firing_count: 1 },
      { id: batchShared, group_key: 'g-shared', status: 'resolved', alert_count: 1, firing_count: 0 },
    ]);
    expect(await repository.alertState(A, batchShared, 'f1')).toEqual({ status: 'resolved', phaseAt: T2 });
    await bUnchanged();
  });

  it('admit_alert_batch refuses a batch with a resolution that has no open incident, and leaves nothing', async () => {
    const opened = newId();
    const refused = dataSource.transaction((manager) =>
      admitBatch([batchAlert('f-new', 'g-new', 'firing', T1, opened), batchAlert('f-late', 'g-nowhere', 'resolved', T2)], manager),
    );
    await expect(refused).rejects.toMatchObject({ code: ALERT_BATCH_UNPLACED });
    expect(await dataSource.query(`SELECT id FROM incidents WHERE id = $1`, [opened])).toEqual([]);
    await bUnchanged();
  });

  it('admit_alert_batch refuses a batch whose open incident is resolved while it waits for the lock, and leaves nothing', async () => {
    const groupKey = 'g-resolving';
    const resolving = newId();
    await incident(A, resolving, groupKey, batchIntegration);
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM incidents WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [A, resolving]);
      const opened = newId();
      // A new group first, so the batch has opened an incident of its own before it waits.
      const waiting = dataSource.transaction((manager) =>
        admitBatch([batchAlert('f-a', 'g-aa-new', 'firing', T1, opened), batchAlert('f-r', groupKey, 'firing', T2)], manager),
      );
      const outcome = waiting.then(
        () => 'admitted',
        (error: { code?: string }) => error.code,
      );
      await untilWaitingForLock(dataSource);
      await holder.query(`UPDATE incidents SET status = 'resolved', resolved_at = $3 WHERE organization_id = $1 AND id = $2`, [A, resolving, T2]);
      await holder.commitTransaction();
      expect(await outcome).toBe(ALERT_BATCH_UNPLACED);
      expect(await dataSource.query(`SELECT id FROM incidents WHERE id = $1`, [opened])).toEqual([]);
      expect(await dataSource.query(`SELECT id FROM alert_events WHERE organization_id = $1 AND fingerprint IN ('f-a', 'f-r')`, [A])).toEqual([]);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
      await dataSource.query(`DELETE FROM incidents WHERE organization_id = $1 AND id = $2`, [A, resolving]);
    }
    await bUnchanged();
  });

  it("openIncident and lockOpenIncident open and lock only the Organization's incidents", async () => {
    await dataSource
      .transaction(async (manager) => {
        await repository.openIncident(A, { id: newId(), integrationId, groupKey: 'g-b-only-2', title: 'T', labels: {}, openedAt: T1 }, manager);
        expect(await repository.lockOpenIncident(A, integrationId, 'g-b-only-2', manager)).toBeDefined();
        expect(await repository.lockOpenIncident(A, integrationId, 'g-own', manager)).toBe(own[A]);
        expect(await lockable(dataSource, 'incidents', B)).toBe(true);
        // Rolled back: the incident opened here is not one of A's afterwards.
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    await dataSource.transaction(async (manager) => {
      expect(await repository.lockOpenIncident(A, integrationId, 'g-b-only-2', manager)).toBeUndefined();
    });
    await bUnchanged();
  });

  it("lockLatestIncidentOfAlert finds and locks only the Organization's incident", async () => {
    await dataSource.transaction(async (manager) => {
      expect(await repository.lockLatestIncidentOfAlert(A, integrationId, 'f-b-only', manager)).toBeUndefined();
      expect(await repository.lockLatestIncidentOfAlert(A, integrationId, 'f1', manager)).toBe(shared);
      expect(await lockable(dataSource, 'incidents', B)).toBe(true);
    });
  });

  it("alertState reads only the Organization's states", async () => {
    expect(await repository.alertState(A, shared, 'f-b-only')).toBeUndefined();
    expect((await repository.alertState(A, shared, 'f1'))?.status).toBe('firing');
  });

  it("opening incidents writes only the Organization's, even where the other has an open incident of the group", async () => {
    await repository.openIncident(A, { id: newId(), integrationId, groupKey: 'g-b-only-3', title: 'T', labels: {}, openedAt: T1 });
    await repository.insertResolvedIncident(A, { id: newId(), integrationId, groupKey: 'g-resolved', title: 'T', labels: {}, openedAt: T1, resolvedAt: T2 });
    const groups = (
      (await dataSource.query(`SELECT group_key FROM incidents WHERE organization_id = $1 ORDER BY group_key`, [A])) as { group_key: string }[]
    ).map((r) => r.group_key);
    expect(groups).toEqual(['g-b-only-3', 'g-own', 'g-own', 'g-resolved', 'g-shared', 'g-shared']);
    await bUnchanged();
  });

  it("inserting an event writes only the Organization's, even where the other stored the same phase", async () => {
    const event = newEvent('f-b-only', shared);
    expect(await repository.insertEvent(A, event)).toBe(true);
    expect(await repository.insertEvent(A, { ...event, id: newId() })).toBe(false);
    await bUnchanged();
  });

  it('alert states and counts change only for the Organization, where the other has the same incident id', async () => {
    const resolved = { status: 'resolved' as const, phaseAt: T2 };
    await repository.upsertAlertState(A, shared, 'f-b-only', resolved);
    await repository.applyDeltas(A, [{ incidentId: shared, delta: { alerts: 1, firing: -1, lastResolution: T2 } }]);
    const [a] = await dataSource.query(`SELECT alert_count, firing_count, status FROM incidents WHERE organization_id = $1 AND id = $2`, [A, shared]);
    expect(a).toEqual({ alert_count: 2, firing_count: 0, status: 'resolved' });
    expect(await repository.alertState(A, shared, 'f-b-only')).toEqual(resolved);
    await bUnchanged();
  });
});
