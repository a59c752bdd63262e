import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Timestamp } from '@svc/platform';

export type AlertStatus = 'firing' | 'resolved';

/** An alert's latest phase within an incident (a row of incident_alerts). */
export interface AlertState {
  status: AlertStatus;
  phaseAt: Timestamp;
}

/** What an admission changes in an incident's running counts. */
export interface Delta {
  alerts: number;
  firing: number;
  lastResolution: Timestamp | null;
}

/** One alert phase as stored in alert_events. */
export interface NewAlertEvent {
  organizationId: string;
  id: string;
  incidentId: string;
  integrationId: string;
  deliveryId: string;
  fingerprint: string;
  status: AlertStatus;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Timestamp;
  endsAt: Timestamp | null;
  phaseAt: Timestamp;
  generatorUrl: string | null;
  receivedAt: Timestamp;
}

/** A new incident of a group. */
export interface NewIncident {
  organizationId: string;
  id: string;
  integrationId: string;
  groupKey: string;
  title: string;
  labels: Record<string, string>;
  openedAt: Timestamp;
}

/** Identifies one phase of one alert of an integration. */
export interface PhaseKey {
  organizationId: string;
  integrationId: string;
  fingerprint: string;
  status: AlertStatus;
  phaseAt: Timestamp;
}

export interface GroupKey {
  organizationId: string;
  integrationId: string;
  groupKey: string;
}

export interface AlertKey {
  organizationId: string;
  incidentId: string;
  fingerprint: string;
}

export interface IncidentDelta {
  organizationId: string;
  incidentId: string;
  delta: Delta;
}

const INSERT_EVENTS = `
  INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, ends_at, phase_at, generator_url, received_at)
  SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::jsonb[], $9::jsonb[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[], $13::text[], $14::timestamptz[])
  ON CONFLICT (organization_id, integration_id, fingerprint, status, phase_at) DO NOTHING
  RETURNING id`;

/** Adds each incident's admission changes to its counts; an open incident with nothing firing resolves. */
const APPLY_DELTAS = `
  UPDATE incidents i SET
    alert_count = i.alert_count + d.alerts,
    firing_count = i.firing_count + d.firing,
    last_resolution_at = GREATEST(i.last_resolution_at, d.last_resolution),
    status = CASE WHEN i.status = 'open' AND i.firing_count + d.firing = 0 AND i.alert_count + d.alerts > 0 THEN 'resolved' ELSE i.status END,
    resolved_at = CASE WHEN i.status = 'open' AND i.firing_count + d.firing = 0 AND i.alert_count + d.alerts > 0
                       THEN COALESCE(GREATEST(i.last_resolution_at, d.last_resolution), clock_timestamp()) ELSE i.resolved_at END,
    updated_at = clock_timestamp()
  FROM unnest($1::text[], $2::uuid[], $3::int[], $4::int[], $5::timestamptz[]) AS d(organization_id, id, alerts, firing, last_resolution)
  WHERE i.organization_id = d.organization_id AND i.id = d.id`;

const UPSERT_STATES = `
  INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at)
  SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[])
  ON CONFLICT (organization_id, incident_id, fingerprint) DO UPDATE SET status = EXCLUDED.status, phase_at = EXCLUDED.phase_at`;

/**
 * The batch's events inserted, and in the same statement the stored state of every alert they
 * belong to (the caller holds the incidents' locks, so no state changes meanwhile).
 */
const INSERT_EVENTS_READING_STATES = `
  WITH inserted AS (${INSERT_EVENTS}),
  keys AS (SELECT DISTINCT organization_id, incident_id, fingerprint FROM unnest($1::text[], $3::uuid[], $6::text[]) AS k(organization_id, incident_id, fingerprint))
  SELECT 'inserted' AS kind, id, NULL::text AS organization_id, NULL::uuid AS incident_id, NULL::text AS fingerprint, NULL::text AS status, NULL::timestamptz AS phase_at
    FROM inserted
  UNION ALL
  SELECT 'state', NULL, s.organization_id, s.incident_id, s.fingerprint, s.status, s.phase_at
    FROM incident_alerts s JOIN keys k ON s.organization_id = k.organization_id AND s.incident_id = k.incident_id AND s.fingerprint = k.fingerprint`;

/** Changed alert states written and each incident's delta applied, in one statement. */
const WRITE_STATES_AND_DELTAS = `
  WITH states AS (${UPSERT_STATES})
  ${APPLY_DELTAS.replace(/\$([1-5])\b/g, (_, n: string) => `$${Number(n) + 5}`)}`;

function eventColumns(events: NewAlertEvent[]): unknown[] {
  return [
    events.map((e) => e.organizationId),
    events.map((e) => e.id),
    events.map((e) => e.incidentId),
    events.map((e) => e.integrationId),
    events.map((e) => e.deliveryId),
    events.map((e) => e.fingerprint),
    events.map((e) => e.status),
    events.map((e) => JSON.stringify(e.labels)),
    events.map((e) => JSON.stringify(e.annotations)),
    events.map((e) => e.startsAt),
    events.map((e) => e.endsAt),
    events.map((e) => e.phaseAt),
    events.map((e) => e.generatorUrl),
    events.map((e) => e.receivedAt),
  ];
}

function stateColumns(rows: Array<AlertKey & { state: AlertState }>): unknown[] {
  return [
    rows.map((r) => r.organizationId),
    rows.map((r) => r.incidentId),
    rows.map((r) => r.fingerprint),
    rows.map((r) => r.state.status),
    rows.map((r) => r.state.phaseAt),
  ];
}

function deltaColumns(rows: IncidentDelta[]): unknown[] {
  return [
    rows.map((x) => x.organizationId),
    rows.map((x) => x.incidentId),
    rows.map((x) => x.delta.alerts),
    rows.map((x) => x.delta.firing),
    rows.map((x) => x.delta.lastResolution),
  ];
}

/**
 * The statements of alert admission (alert_events, incidents, incident_alerts). Two kinds:
 *
 * - Per Organization (`organizationId` first): the one-by-one path.
 * - `…AcrossOrganizations`: the batched path admits the deliveries of several Organizations in
 *   one statement. Every row carries its own Organization, and each row is matched only against
 *   rows of that Organization (the join or conflict target includes organization_id).
 */
@Injectable()
export class IncidentAdmissionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  // ---- Batched, across Organizations -------------------------------------------------------

  /** For each key that is already stored, its position in `keys` and the incident it went to. */
  async storedPhasesAcrossOrganizations(keys: PhaseKey[], manager: EntityManager = this.dataSource.manager): Promise<Map<number, string>> {
    const rows = (await manager.query(
      `SELECT k.n::int AS n, e.incident_id FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) WITH ORDINALITY AS k(organization_id, integration_id, fingerprint, status, phase_at, n)
         JOIN alert_events e ON e.organization_id = k.organization_id AND e.integration_id = k.integration_id AND e.fingerprint = k.fingerprint
                            AND e.status = k.status AND e.phase_at = k.phase_at`,
      [
        keys.map((p) => p.organizationId),
        keys.map((p) => p.integrationId),
        keys.map((p) => p.fingerprint),
        keys.map((p) => p.status),
        keys.map((p) => p.phaseAt),
      ],
    )) as { n: number; incident_id: string }[];
    return new Map(rows.map((row) => [row.n - 1, row.incident_id]));
  }

  /**
   * Opens an incident for each group in `openers` that has no open incident (the partial unique
   * index decides races), then locks the open incident of each group in `groups`, in id order, all
   * in one statement. Groups without an open incident are absent from the result: one opened by a
   * transaction that committed after this statement began is neither opened again nor seen.
   *
   * A group whose open incident exists is not inserted at all, so the statement does not wait on
   * a transaction that holds that incident: the lock is the only wait.
   */
  async openAndLockIncidentsAcrossOrganizations(
    openers: NewIncident[],
    groups: GroupKey[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Array<GroupKey & { id: string }>> {
    const rows = (await manager.query(
      `WITH opened AS (
         INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
         SELECT g.organization_id, g.id, g.integration_id, g.group_key, 'open', g.title, g.labels, g.opened_at
           FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[]) AS g(organization_id, id, integration_id, group_key, title, labels, opened_at)
          WHERE NOT EXISTS (
                  SELECT 1 FROM incidents o
                   WHERE o.organization_id = g.organization_id AND o.integration_id = g.integration_id AND o.group_key = g.group_key AND o.status = 'open')
         ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING
         RETURNING id, organization_id, integration_id, group_key
       ), locked AS (
         SELECT i.id, i.organization_id, i.integration_id, i.group_key FROM incidents i
           JOIN unnest($8::text[], $9::uuid[], $10::text[]) AS g(organization_id, integration_id, group_key)
             ON i.organization_id = g.organization_id AND i.integration_id = g.integration_id AND i.group_key = g.group_key
          WHERE i.status = 'open'
          ORDER BY i.id
          FOR UPDATE OF i
       )
       SELECT * FROM opened UNION ALL SELECT * FROM locked`,
      [
        openers.map((i) => i.organizationId),
        openers.map((i) => i.id),
        openers.map((i) => i.integrationId),
        openers.map((i) => i.groupKey),
        openers.map((i) => i.title),
        openers.map((i) => JSON.stringify(i.labels)),
        openers.map((i) => i.openedAt),
        groups.map((g) => g.organizationId),
        groups.map((g) => g.integrationId),
        groups.map((g) => g.groupKey),
      ],
    )) as { id: string; organization_id: string; integration_id: string; group_key: string }[];
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, integrationId: r.integration_id, groupKey: r.group_key }));
  }

  /**
   * Inserts the events (an exact retry of a stored phase is not inserted) and reads the stored
   * state of every alert they belong to; the caller holds the locks of the events' incidents.
   */
  async insertEventsReadingStatesAcrossOrganizations(
    events: NewAlertEvent[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ inserted: Set<string>; states: Array<AlertKey & { state: AlertState }> }> {
    const rows = (await manager.query(INSERT_EVENTS_READING_STATES, eventColumns(events))) as Array<{
      kind: 'inserted' | 'state';
      id: string | null;
      organization_id: string;
      incident_id: string;
      fingerprint: string;
      status: AlertStatus;
      phase_at: Timestamp;
    }>;
    const inserted = new Set<string>();
    const states: Array<AlertKey & { state: AlertState }> = [];
    for (const row of rows) {
      if (row.kind === 'inserted') inserted.add(row.id!);
      else
        states.push({
          organizationId: row.organization_id,
          incidentId: row.incident_id,
          fingerprint: row.fingerprint,
          state: { status: row.status, phaseAt: row.phase_at },
        });
    }
    return { inserted, states };
  }

  /** Writes the alert states that changed and adds each incident's delta to its counts, in one statement. */
  async writeStatesAndDeltasAcrossOrganizations(
    states: Array<AlertKey & { state: AlertState }>,
    deltas: IncidentDelta[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(WRITE_STATES_AND_DELTAS, [...stateColumns(states), ...deltaColumns(deltas)]);
  }

  // ---- One Organization ----------------------------------------------------------------------

  /** The incident a stored phase went to, if this exact phase is stored. */
  async storedPhase(
    organizationId: string,
    key: Omit<PhaseKey, 'organizationId'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const rows = (await manager.query(
      'SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 AND status = $4 AND phase_at = $5',
      [organizationId, key.integrationId, key.fingerprint, key.status, key.phaseAt],
    )) as { incident_id: string }[];
    return rows[0]?.incident_id;
  }

  /** Inserts the event; false when it is an exact retry of a stored phase. */
  async insertEvent(organizationId: string, event: Omit<NewAlertEvent, 'organizationId'>, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const inserted = (await manager.query(INSERT_EVENTS, eventColumns([{ ...event, organizationId }]))) as unknown[];
    return inserted.length > 0;
  }

  async alertState(
    organizationId: string,
    incidentId: string,
    fingerprint: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AlertState | undefined> {
    const [row] = (await manager.query('SELECT status, phase_at FROM incident_alerts WHERE organization_id = $1 AND incident_id = $2 AND fingerprint = $3', [
      organizationId,
      incidentId,
      fingerprint,
    ])) as { status: AlertStatus; phase_at: Timestamp }[];
    return row && { status: row.status, phaseAt: row.phase_at };
  }

  async upsertAlertState(
    organizationId: string,
    incidentId: string,
    fingerprint: string,
    state: AlertState,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(UPSERT_STATES, stateColumns([{ organizationId, incidentId, fingerprint, state }]));
  }

  async applyDeltas(
    organizationId: string,
    deltas: Array<{ incidentId: string; delta: Delta }>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(APPLY_DELTAS, deltaColumns(deltas.map((d) => ({ ...d, organizationId }))));
  }

  /** Opens the incident unless its group already has an open one (the partial unique index decides races). */
  async openIncident(organizationId: string, incident: Omit<NewIncident, 'organizationId'>, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $6::jsonb, $7)
       ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING`,
      [organizationId, incident.id, incident.integrationId, incident.groupKey, incident.title, JSON.stringify(incident.labels), incident.openedAt],
    );
  }

  /** The group's open incident, locked for the rest of the transaction. */
  async lockOpenIncident(
    organizationId: string,
    integrationId: string,
    groupKey: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const rows = (await manager.query(
      `SELECT id FROM incidents WHERE organization_id = $1 AND integration_id = $2 AND group_key = $3 AND status = 'open' FOR UPDATE`,
      [organizationId, integrationId, groupKey],
    )) as { id: string }[];
    return rows[0]?.id;
  }

  /** The incident that most recently received a phase of this alert, locked. */
  async lockLatestIncidentOfAlert(
    organizationId: string,
    integrationId: string,
    fingerprint: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const rows = (await manager.query(
      `SELECT i.id FROM incidents i
        WHERE i.organization_id = $1
          AND i.id = (SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 ORDER BY received_at DESC LIMIT 1)
        FOR UPDATE`,
      [organizationId, integrationId, fingerprint],
    )) as { id: string }[];
    return rows[0]?.id;
  }

  /** An incident that is resolved from the start (a resolution for an alert never seen firing). */
  async insertResolvedIncident(
    organizationId: string,
    incident: Omit<NewIncident, 'organizationId'> & { resolvedAt: Timestamp },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at, resolved_at)
       VALUES ($1, $2, $3, $4, 'resolved', $5, $6::jsonb, $7, $8)`,
      [
        organizationId,
        incident.id,
        incident.integrationId,
        incident.groupKey,
        incident.title,
        JSON.stringify(incident.labels),
        incident.openedAt,
        incident.resolvedAt,
      ],
    );
  }
}
