import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IncidentAdmissionRepository, NewAlertEvent } from '@svc/incidents';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

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
 * f-b-only. Every statement runs for A and must neither read nor change a row of B.
 */
describe('IncidentAdmissionRepository keeps to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: IncidentAdmissionRepository;
  const integrationId = newId();
  const shared = newId();
  const own: Record<string, string> = { [A]: newId(), [B]: newId() };
  const bOnly = newId();
  let before: Record<string, unknown[]>;

  async function incident(org: string, id: string, groupKey: string): Promise<void> {
    await dataSource.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at, alert_count, firing_count)
      VALUES ($1, $2, $3, $4, 'open', 'T', '{}', $5, 1, 1)`,
      [org, id, integrationId, groupKey, T1],
    );
  }
  async function event(org: string, incidentId: string, fingerprint: string): Promise<void> {
    await dataSource.query(
      `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, phase_at)
      VALUES ($1, $2, $3, $4, $5, $6, 'firing', '{}', '{}', $7, $7)`,
      [org, newId(), incidentId, integrationId, newId(), fingerprint, T1],
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
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
      await incident(org, shared, 'g-shared');
      await incident(org, own[org], 'g-own');
      await event(org, shared, 'f1');
      await event(org, own[org], 'f2');
    }
    await incident(B, bOnly, 'g-b-only');
    await event(B, shared, 'f-b-only');
  });
  beforeEach(async () => {
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

  it("storedPhasesAcrossOrganizations and storedPhase find only the Organization's phases", async () => {
    const key = { integrationId, status: 'firing' as const, phaseAt: T1 };
    const found = await repository.storedPhasesAcrossOrganizations([
      { organizationId: A, fingerprint: 'f-b-only', ...key },
      { organizationId: A, fingerprint: 'f2', ...key },
    ]);
    expect([...found.entries()]).toEqual([[1, own[A]]]);
    expect(await repository.storedPhase(A, { fingerprint: 'f-b-only', ...key })).toBeUndefined();
    expect(await repository.storedPhase(A, { fingerprint: 'f2', ...key })).toBe(own[A]);
    await bUnchanged();
  });

  it("openAndLockIncidentsAcrossOrganizations and lockOpenIncident open and lock only the Organization's incidents", async () => {
    const opened = newId();
    await dataSource
      .transaction(async (manager) => {
        const locked = await repository.openAndLockIncidentsAcrossOrganizations(
          [
            // B has an open incident of g-b-only, A has none: A's is opened.
            { organizationId: A, id: opened, integrationId, groupKey: 'g-b-only', title: 'T', labels: {}, openedAt: T1 },
            // A's own open incident of g-own stands: nothing is opened.
            { organizationId: A, id: newId(), integrationId, groupKey: 'g-own', title: 'T', labels: {}, openedAt: T1 },
          ],
          [
            { organizationId: A, integrationId, groupKey: 'g-b-only' },
            { organizationId: A, integrationId, groupKey: 'g-own' },
          ],
          manager,
        );
        expect(locked).toEqual([
          { id: opened, organizationId: A, integrationId, groupKey: 'g-b-only' },
          { id: own[A], organizationId: A, integrationId, groupKey: 'g-own' },
        ]);
        expect(await repository.lockOpenIncident(A, integrationId, 'g-own', manager)).toBe(own[A]);
        expect(await lockable(dataSource, 'incidents', B)).toBe(true);
        // Rolled back: the incident opened here is not one of A's afterwards.
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    await dataSource.transaction(async (manager) => {
      expect(await repository.lockOpenIncident(A, integrationId, 'g-b-only', manager)).toBeUndefined();
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
    await repository.openAndLockIncidentsAcrossOrganizations(
      [{ organizationId: A, id: newId(), integrationId, groupKey: 'g-b-only', title: 'T', labels: {}, openedAt: T1 }],
      [],
    );
    await repository.openIncident(A, { id: newId(), integrationId, groupKey: 'g-b-only-2', title: 'T', labels: {}, openedAt: T1 });
    await repository.insertResolvedIncident(A, { id: newId(), integrationId, groupKey: 'g-resolved', title: 'T', labels: {}, openedAt: T1, resolvedAt: T2 });
    const groups = (
      (await dataSource.query(`SELECT group_key FROM incidents WHERE organization_id = $1 ORDER BY group_key`, [A])) as { group_key: string }[]
    ).map((r) => r.group_key);
    expect(groups).toEqual(['g-b-only', 'g-b-only-2', 'g-own', 'g-resolved', 'g-shared']);
    await bUnchanged();
  });

  it("inserting events writes only the Organization's, and reads only its states, even where the other stored the same phase", async () => {
    const batch = [newEvent('f-b-only', shared), newEvent('f1', shared)];
    const { inserted, states } = await repository.insertEventsReadingStatesAcrossOrganizations(batch.map((e) => ({ ...e, organizationId: A })));
    // f1's phase is A's own (a retry); f-b-only's is stored only by B, so A's is new.
    expect(inserted).toEqual(new Set([batch[0].id]));
    expect(states).toEqual([{ organizationId: A, incidentId: shared, fingerprint: 'f1', state: { status: 'firing', phaseAt: T1 } }]);
    expect(await repository.insertEvent(A, newEvent('f-b-only', shared))).toBe(false);
    expect(await repository.insertEvent(A, newEvent('f3', shared))).toBe(true);
    await bUnchanged();
  });

  it('alert states and counts change only for the Organization, where the other has the same incident id', async () => {
    const resolved = { status: 'resolved' as const, phaseAt: T2 };
    await repository.writeStatesAndDeltasAcrossOrganizations(
      [{ organizationId: A, incidentId: shared, fingerprint: 'f1', state: resolved }],
      [{ organizationId: A, incidentId: shared, delta: { alerts: 1, firing: -1, lastResolution: T2 } }],
    );
    await repository.upsertAlertState(A, shared, 'f-b-only', resolved);
    await repository.applyDeltas(A, [{ incidentId: shared, delta: { alerts: 0, firing: 0, lastResolution: T2 } }]);
    const [a] = await dataSource.query(`SELECT alert_count, firing_count, status FROM incidents WHERE organization_id = $1 AND id = $2`, [A, shared]);
    expect(a).toEqual({ alert_count: 2, firing_count: 0, status: 'resolved' });
    expect(await repository.alertState(A, shared, 'f1')).toEqual(resolved);
    await bUnchanged();
  });
});
