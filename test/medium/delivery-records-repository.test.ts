import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryRecord, DeliveryRecordsRepository, DeliveryToAdmit } from '@svc/alerts';
import { IncidentAdmissionRepository, IncidentAdmissionService } from '@svc/incidents';
import { hashWebhookSecret } from '@svc/integrations';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';

describe('DeliveryRecordsRepository writes each delivery under its own Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let repository: DeliveryRecordsRepository;
  const integrationId = newId();
  const sharedId = newId();
  const record = (organizationId: string, id: string): DeliveryRecord => ({
    organizationId,
    id,
    integrationId,
    statusCode: 202,
    accepted: 1,
    duplicates: 0,
    incidentIds: [newId()],
    error: null,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    replayOf: null,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    repository = new DeliveryRecordsRepository(dataSource);
    for (const org of [B, A]) await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
    await repository.insertAcrossOrganizations([record(B, sharedId)]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it("a batch of A's deliveries (one with an id B also has) adds rows to A only", async () => {
    const deliveriesOf = async (org: string) =>
      ((await organizationRows(dataSource, org, ['webhook_deliveries'])).webhook_deliveries as { id: string; organization_id: string }[]).map((r) => [
        r.organization_id,
        r.id,
      ]);
    const before = await organizationRows(dataSource, B, ['webhook_deliveries']);
    const beforeA = await deliveriesOf(A);
    const extra = newId();
    await repository.insertAcrossOrganizations([record(A, sharedId), record(A, extra)]);
    expect(await organizationRows(dataSource, B, ['webhook_deliveries'])).toEqual(before);
    // Exactly these two rows were added to A (other tests add A's deliveries of their own).
    expect((await deliveriesOf(A)).sort()).toEqual([...beforeA, [A, sharedId], [A, extra]].sort());
  });

  describe('admitAcrossOrganizations', () => {
    const TABLES = ['webhook_deliveries', 'incidents', 'alert_events', 'incident_alerts'];
    const integration: Record<string, string> = { [A]: newId(), [B]: newId() };
    const secretHash: Record<string, Buffer> = { [A]: hashWebhookSecret('secret-a'), [B]: hashWebhookSecret('secret-b') };
    let admission: IncidentAdmissionService;
    let seq = 0;

    beforeAll(async () => {
      admission = new IncidentAdmissionService(new IncidentAdmissionRepository(dataSource));
      for (const org of [B, A])
        await dataSource.query(
          `INSERT INTO integrations (organization_id, id, type, name, enabled, config, webhook_secret_hash, created_by) VALUES ($1, $2, 'generic', $1, true, '{}', $3, $4)`,
          [org, integration[org], secretHash[org], newId()],
        );
    });

    /** One delivery of one firing alert, for `organizationId`'s receiver of `integrationId`, presenting `credential`. */
    function delivery(organizationId: string, integrationId: string, credential: Buffer) {
      const id = newId();
      seq += 1;
      const request = {
        organizationId,
        input: {
          integrationId,
          groupingLabels: ['alertname'],
          groupKey: null,
          deliveryId: id,
          receivedAt: Timestamp.now(),
          alerts: [
            {
              fingerprint: `fp-${seq}`,
              status: 'firing' as const,
              labels: { alertname: 'Batch' },
              annotations: {},
              startsAt: Timestamp.now(),
              endsAt: null,
              generatorUrl: null,
            },
          ],
        },
      };
      const toAdmit: DeliveryToAdmit = { organizationId, id, integrationId, credential, error: null, headers: {}, body: '{}', replayOf: null };
      return { request, toAdmit };
    }

    it("admits and records A's delivery under A only, holding only A's integration", async () => {
      const before = await organizationRows(dataSource, B, TABLES);
      const { request, toAdmit } = delivery(A, integration[A], secretHash[A]);
      await dataSource.transaction(async (manager) => {
        const [admitted] = await repository.admitAcrossOrganizations([toAdmit], admission.planBatch([request]), manager);
        expect(admitted).toMatchObject({ statusCode: 202, accepted: 1, duplicates: 0 });
        expect(await lockable(dataSource, 'integrations', B)).toBe(true);
        expect(await lockable(dataSource, 'integrations', A)).toBe(false);
      });
      const recorded = await dataSource.query(`SELECT organization_id, status_code, accepted FROM webhook_deliveries WHERE id = $1`, [toAdmit.id]);
      expect(recorded).toEqual([{ organization_id: A, status_code: 202, accepted: 1 }]);
      expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);
    });

    it("answers 401 and writes nothing for a credential that is not the integration's own, or an integration of the other Organization", async () => {
      const beforeA = await organizationRows(dataSource, A, TABLES);
      const beforeB = await organizationRows(dataSource, B, TABLES);
      // B's current secret presented for A's integration; A claiming B's integration with B's secret.
      const wrongSecret = delivery(A, integration[A], secretHash[B]);
      const otherIntegration = delivery(A, integration[B], secretHash[B]);
      const current = delivery(A, integration[A], secretHash[A]);
      const batch = [wrongSecret, otherIntegration, current];
      const admitted = await repository.admitAcrossOrganizations(
        batch.map((d) => d.toAdmit),
        admission.planBatch(batch.map((d) => d.request)),
      );
      expect(admitted.map((a) => a?.statusCode)).toEqual([401, 401, undefined]);
      expect(await organizationRows(dataSource, A, TABLES)).toEqual(beforeA);
      expect(await organizationRows(dataSource, B, TABLES)).toEqual(beforeB);
    });
  });

  it('a batch of both Organizations puts each row under its own', async () => {
    const [forA, forB] = [newId(), newId()];
    await repository.insertAcrossOrganizations([record(A, forA), record(B, forB)]);
    const owners = await dataSource.query(`SELECT organization_id, id FROM webhook_deliveries WHERE id = ANY($1) ORDER BY organization_id`, [[forA, forB]]);
    expect(owners).toEqual([
      { organization_id: A, id: forA },
      { organization_id: B, id: forB },
    ]);
  });
});
