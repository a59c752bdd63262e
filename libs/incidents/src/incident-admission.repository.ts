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

/** One alert phase of an admission batch, with its group and what to open the group's incident with. */
export interface BatchAlert extends Omit<NewAlertEvent, 'incidentId'> {
  groupKey: string;
  groupLabels: Record<string, string>;
  /** The title of an incident this phase opens (a firing phase); null for a resolution. */
  title: string | null;
  /** The id of the incident this phase opens, when it is the earliest firing phase of a group with none open. */
  openedId: string;
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

/** The SQL types of `admit_alert_batch`'s arguments, in order (see alertBatchArguments). */
export const ALERT_BATCH_TYPES = [
  'text[]',
  'uuid[]',
  'text[]',
  'jsonb[]',
  'text[]',
  'uuid[]',
  'uuid[]',
  'uuid[]',
  'text[]',
  'text[]',
  'jsonb[]',
  'jsonb[]',
  'timestamptz[]',
  'timestamptz[]',
  'timestamptz[]',
  'text[]',
  'timestamptz[]',
];

/**
 * The arguments of the `admit_alert_batch` database function (see its migration), which admits a
 * batch of alert phases in one statement: exact retries of stored phases set aside, an incident
 * opened for each group with a firing phase and none open, every group's open incident locked in
 * id order, the phases stored, the alert states advanced and each incident's counts changed. Each
 * row carries its Organization, and matches only rows of that Organization. It returns, per phase,
 * its 1-based position, its incident and `stored`, `accepted` or `retried`; SQLSTATE
 * ALERT_BATCH_UNPLACED when a group has no open incident to go to.
 */
export function alertBatchArguments(alerts: BatchAlert[]): unknown[] {
  return [
    alerts.map((a) => a.organizationId),
    alerts.map((a) => a.integrationId),
    alerts.map((a) => a.groupKey),
    alerts.map((a) => JSON.stringify(a.groupLabels)),
    alerts.map((a) => a.title),
    alerts.map((a) => a.openedId),
    alerts.map((a) => a.id),
    alerts.map((a) => a.deliveryId),
    alerts.map((a) => a.fingerprint),
    alerts.map((a) => a.status),
    alerts.map((a) => JSON.stringify(a.labels)),
    alerts.map((a) => JSON.stringify(a.annotations)),
    alerts.map((a) => a.startsAt),
    alerts.map((a) => a.endsAt),
    alerts.map((a) => a.phaseAt),
    alerts.map((a) => a.generatorUrl),
    alerts.map((a) => a.receivedAt),
  ];
}

/** The SQLSTATE `admit_alert_batch` raises when a group of the batch has no open incident to go to. */
export const ALERT_BATCH_UNPLACED = 'SVA01';

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
