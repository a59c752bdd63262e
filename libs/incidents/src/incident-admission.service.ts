import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { newId, Timestamp } from '@svc/platform';
import { AdmissionInput, AdmissionResult, AdmittedAlert } from './admission.types';

type AlertStatus = 'firing' | 'resolved';

/** An alert's latest phase within an incident (a row of incident_alerts). */
interface AlertState {
  status: AlertStatus;
  phaseAt: Timestamp;
}

/** What an admission changes in an incident's running counts. */
interface Delta {
  alerts: number;
  firing: number;
  lastResolution: Timestamp | null;
}

interface Group {
  key: string;
  labels: Record<string, string>;
}

/** One alert of one delivery, with what admission derives from it. */
interface PlannedAlert {
  delivery: number;
  organizationId: string;
  integrationId: string;
  alert: AdmittedAlert;
  group: Group;
  phaseAt: Timestamp;
}

export interface AdmissionRequest {
  organizationId: string;
  input: AdmissionInput;
}

const MAX_GROUP_KEY = 1024;

/** Group keys are indexed: a longer one (a sender's) is replaced by its SHA-256, which groups the same. */
function storableGroupKey(key: string): string {
  return key.length <= MAX_GROUP_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** `{alertname="X",service="Y"}`: the group of an alert by the integration's grouping labels. */
function groupOf(labels: Record<string, string>, groupingLabels: string[]): Group {
  const picked = Object.fromEntries(groupingLabels.filter((name) => labels[name] !== undefined).map((name) => [name, labels[name]]));
  return { key: `{${Object.entries(picked).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`, labels: picked };
}

function titleOf(alert: AdmittedAlert, groupLabels: Record<string, string>): string {
  const summary = alert.annotations.summary ?? alert.annotations.title;
  const name = alert.labels.alertname ?? 'Alert';
  const scope = Object.entries(groupLabels).filter(([k]) => k !== 'alertname').map(([, v]) => v).join(', ');
  return (summary ?? (scope ? `${name} (${scope})` : name)).slice(0, 1024);
}

/** The delivery's alerts with their group and phase time, in group key order (the order incidents are locked in). */
function plan(delivery: number, organizationId: string, input: AdmissionInput): PlannedAlert[] {
  return input.alerts.map((alert) => {
    const byLabels = groupOf(alert.labels, input.groupingLabels);
    const group = { key: storableGroupKey(input.groupKey ?? byLabels.key), labels: byLabels.labels };
    const phaseAt = alert.status === 'firing' ? alert.startsAt : alert.endsAt ?? input.receivedAt;
    return { delivery, organizationId, integrationId: input.integrationId, alert, group, phaseAt };
  }).sort((a, b) => (a.group.key < b.group.key ? -1 : a.group.key > b.group.key ? 1 : 0));
}

/**
 * Moves an alert's state forward if this phase is its latest (a later phase, or a resolution at
 * the same instant), recording the change in the incident's counts. Returns the new state, or
 * null when nothing changes.
 */
function advance(current: AlertState | undefined, status: AlertStatus, phaseAt: Timestamp, delta: Delta): AlertState | null {
  if (status === 'resolved' && (!delta.lastResolution || phaseAt.isAfter(delta.lastResolution))) delta.lastResolution = phaseAt;
  if (!current) {
    delta.alerts += 1;
    if (status === 'firing') delta.firing += 1;
    return { status, phaseAt };
  }
  const later = phaseAt.isAfter(current.phaseAt) || (phaseAt.epochMicros === current.phaseAt.epochMicros && status === 'resolved');
  if (!later || (current.status === status && phaseAt.epochMicros === current.phaseAt.epochMicros)) return null;
  if (current.status === 'firing' && status === 'resolved') delta.firing -= 1;
  if (current.status === 'resolved' && status === 'firing') delta.firing += 1;
  return { status, phaseAt };
}

const emptyDelta = (): Delta => ({ alerts: 0, firing: 0, lastResolution: null });

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
 * Admission of alert phases into incidents, inside the caller's transaction: each new lifecycle
 * phase becomes an alert event in the open incident of its group (opened when there is none); an
 * exact retry of a phase is a duplicate; an incident whose alerts are all resolved becomes
 * resolved. Every incident an admission changes is locked first, so concurrent admissions and
 * merges change an incident's state one at a time.
 */
@Injectable()
export class IncidentAdmissionService {
  /**
   * Admits several deliveries with a fixed number of statements, whatever their count. Incidents
   * are locked in id order, like every other multi-incident change. Returns null, having changed
   * nothing the caller must keep, when a resolution in the batch has no open incident to go to (a
   * late resolution, or one never seen firing): the caller rolls back and admits each delivery
   * with `admit`, which handles that.
   */
  async admitTogether(manager: EntityManager, requests: AdmissionRequest[]): Promise<AdmissionResult[] | null> {
    const planned = requests.flatMap((r, i) => plan(i, r.organizationId, r.input));
    const results: AdmissionResult[] = requests.map(() => ({ accepted: 0, duplicates: 0, incidentIds: [] }));
    const noteIncident = (delivery: number, incidentId: string): void => {
      const ids = results[delivery].incidentIds;
      if (!ids.includes(incidentId)) ids.push(incidentId);
    };

    // Exact retries of phases already stored.
    const existing = await manager.query(
      `SELECT k.n::int AS n, e.incident_id FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) WITH ORDINALITY AS k(organization_id, integration_id, fingerprint, status, phase_at, n)
         JOIN alert_events e ON e.organization_id = k.organization_id AND e.integration_id = k.integration_id AND e.fingerprint = k.fingerprint
                            AND e.status = k.status AND e.phase_at = k.phase_at`,
      [planned.map((p) => p.organizationId), planned.map((p) => p.integrationId), planned.map((p) => p.alert.fingerprint), planned.map((p) => p.alert.status), planned.map((p) => p.phaseAt)],
    ) as { n: number; incident_id: string }[];
    const stored = new Map(existing.map((row) => [row.n - 1, row.incident_id]));
    const fresh = planned.filter((p, i) => {
      const incidentId = stored.get(i);
      if (incidentId === undefined) return true;
      results[p.delivery].duplicates += 1;
      noteIncident(p.delivery, incidentId);
      return false;
    });

    // Each group with a firing alert gets an open incident (the partial unique index decides races),
    // opened at its earliest firing phase.
    const groupId = (p: PlannedAlert): string => JSON.stringify([p.organizationId, p.integrationId, p.group.key]);
    const openers = new Map<string, PlannedAlert>();
    for (const p of fresh) {
      const current = openers.get(groupId(p));
      if (p.alert.status === 'firing' && (!current || current.phaseAt.isAfter(p.phaseAt))) openers.set(groupId(p), p);
    }
    if (openers.size > 0) {
      const o = [...openers.values()];
      await manager.query(
        `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
         SELECT organization_id, id, integration_id, group_key, 'open', title, labels, opened_at
           FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[]) AS g(organization_id, id, integration_id, group_key, title, labels, opened_at)
         ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING`,
        [o.map((p) => p.organizationId), o.map(() => newId()), o.map((p) => p.integrationId), o.map((p) => p.group.key),
          o.map((p) => titleOf(p.alert, p.group.labels)), o.map((p) => JSON.stringify(p.group.labels)), o.map((p) => p.phaseAt)],
      );
    }

    const groups = [...new Map(fresh.map((p) => [groupId(p), p])).values()];
    const open = groups.length === 0 ? [] : await manager.query(
      `SELECT i.id, i.organization_id, i.integration_id, i.group_key FROM incidents i
         JOIN unnest($1::text[], $2::uuid[], $3::text[]) AS g(organization_id, integration_id, group_key)
           ON i.organization_id = g.organization_id AND i.integration_id = g.integration_id AND i.group_key = g.group_key
        WHERE i.status = 'open'
        ORDER BY i.id
        FOR UPDATE OF i`,
      [groups.map((p) => p.organizationId), groups.map((p) => p.integrationId), groups.map((p) => p.group.key)],
    ) as { id: string; organization_id: string; integration_id: string; group_key: string }[];
    const openIncident = new Map(open.map((i) => [JSON.stringify([i.organization_id, i.integration_id, i.group_key]), i.id]));
    // A group without an open incident now: a resolution with nowhere obvious to go, or an incident
    // resolved by another admission between opening and locking. The one-by-one path decides.
    if (groups.some((p) => !openIncident.has(groupId(p)))) return null;

    const events = fresh.map((p) => ({ ...p, id: newId(), incidentId: openIncident.get(groupId(p))! }));
    const inserted = new Set((await manager.query(INSERT_EVENTS, [
      events.map((e) => e.organizationId), events.map((e) => e.id), events.map((e) => e.incidentId), events.map((e) => e.integrationId),
      events.map((e) => requests[e.delivery].input.deliveryId), events.map((e) => e.alert.fingerprint), events.map((e) => e.alert.status),
      events.map((e) => JSON.stringify(e.alert.labels)), events.map((e) => JSON.stringify(e.alert.annotations)), events.map((e) => e.alert.startsAt),
      events.map((e) => e.alert.endsAt), events.map((e) => e.phaseAt), events.map((e) => e.alert.generatorUrl), events.map((e) => requests[e.delivery].input.receivedAt),
    ]) as { id: string }[]).map((row) => row.id));

    const admitted = events.filter((e) => {
      noteIncident(e.delivery, e.incidentId);
      if (inserted.has(e.id)) results[e.delivery].accepted += 1;
      else results[e.delivery].duplicates += 1;
      return inserted.has(e.id);
    });
    if (admitted.length === 0) return results;

    // Alert state and counts: read the current state of every alert touched, advance it in memory,
    // write back what changed, and add each incident's delta to its counts.
    const stateKey = (organizationId: string, incidentId: string, fingerprint: string): string => JSON.stringify([organizationId, incidentId, fingerprint]);
    const keys = [...new Map(admitted.map((e) => [stateKey(e.organizationId, e.incidentId, e.alert.fingerprint), e])).values()];
    const current = await manager.query(
      `SELECT s.organization_id, s.incident_id, s.fingerprint, s.status, s.phase_at FROM incident_alerts s
         JOIN unnest($1::text[], $2::uuid[], $3::text[]) AS k(organization_id, incident_id, fingerprint)
           ON s.organization_id = k.organization_id AND s.incident_id = k.incident_id AND s.fingerprint = k.fingerprint`,
      [keys.map((e) => e.organizationId), keys.map((e) => e.incidentId), keys.map((e) => e.alert.fingerprint)],
    ) as { organization_id: string; incident_id: string; fingerprint: string; status: AlertStatus; phase_at: Timestamp }[];
    const states = new Map<string, AlertState>(current.map((s) => [stateKey(s.organization_id, s.incident_id, s.fingerprint), { status: s.status, phaseAt: s.phase_at }]));
    const changed = new Map<string, { organizationId: string; incidentId: string; fingerprint: string }>();
    const deltas = new Map<string, { organizationId: string; incidentId: string; delta: Delta }>();
    for (const e of admitted) {
      const key = stateKey(e.organizationId, e.incidentId, e.alert.fingerprint);
      const incidentKey = JSON.stringify([e.organizationId, e.incidentId]);
      const entry = deltas.get(incidentKey) ?? { organizationId: e.organizationId, incidentId: e.incidentId, delta: emptyDelta() };
      deltas.set(incidentKey, entry);
      const next = advance(states.get(key), e.alert.status, e.phaseAt, entry.delta);
      if (next) {
        states.set(key, next);
        changed.set(key, { organizationId: e.organizationId, incidentId: e.incidentId, fingerprint: e.alert.fingerprint });
      }
    }
    if (changed.size > 0) {
      const rows = [...changed.entries()].map(([key, row]) => ({ ...row, state: states.get(key)! }));
      await manager.query(UPSERT_STATES, [rows.map((r) => r.organizationId), rows.map((r) => r.incidentId), rows.map((r) => r.fingerprint), rows.map((r) => r.state.status), rows.map((r) => r.state.phaseAt)]);
    }
    const d = [...deltas.values()];
    await manager.query(APPLY_DELTAS, [d.map((x) => x.organizationId), d.map((x) => x.incidentId), d.map((x) => x.delta.alerts), d.map((x) => x.delta.firing), d.map((x) => x.delta.lastResolution)]);
    return results;
  }

  /**
   * Admits one delivery, alert by alert. Handles everything `admitTogether` leaves to it: a
   * resolution goes to the group's open incident, else to the latest incident that saw this
   * alert, else (a resolution for an alert never seen firing) to a new incident, resolved at
   * once, so that nothing accepted is dropped. Groups are handled in key order, so concurrent
   * deliveries lock incidents in the same order.
   */
  async admit(manager: EntityManager, organizationId: string, input: AdmissionInput): Promise<AdmissionResult> {
    const result: AdmissionResult = { accepted: 0, duplicates: 0, incidentIds: [] };
    const touched = new Map<string, Delta>();
    for (const { alert, group, phaseAt } of plan(0, organizationId, input)) {
      const existing = await this.existingPhase(manager, organizationId, input.integrationId, alert, phaseAt);
      if (existing) {
        result.duplicates += 1;
        if (!result.incidentIds.includes(existing)) result.incidentIds.push(existing);
        continue;
      }
      const incidentId = alert.status === 'firing'
        ? await this.openIncident(manager, organizationId, input, group, alert, phaseAt)
        : await this.incidentForResolution(manager, organizationId, input, group, alert, phaseAt);
      const inserted = await manager.query(INSERT_EVENTS, [[organizationId], [newId()], [incidentId], [input.integrationId], [input.deliveryId], [alert.fingerprint], [alert.status],
        [JSON.stringify(alert.labels)], [JSON.stringify(alert.annotations)], [alert.startsAt], [alert.endsAt], [phaseAt], [alert.generatorUrl], [input.receivedAt]]) as unknown[];
      if (inserted.length === 0) {
        result.duplicates += 1;
      } else {
        result.accepted += 1;
        const delta = touched.get(incidentId) ?? emptyDelta();
        touched.set(incidentId, delta);
        const [row] = await manager.query('SELECT status, phase_at FROM incident_alerts WHERE organization_id = $1 AND incident_id = $2 AND fingerprint = $3',
          [organizationId, incidentId, alert.fingerprint]) as { status: AlertStatus; phase_at: Timestamp }[];
        const next = advance(row && { status: row.status, phaseAt: row.phase_at }, alert.status, phaseAt, delta);
        if (next) await manager.query(UPSERT_STATES, [[organizationId], [incidentId], [alert.fingerprint], [next.status], [next.phaseAt]]);
      }
      if (!result.incidentIds.includes(incidentId)) result.incidentIds.push(incidentId);
    }
    if (touched.size > 0) {
      const d = [...touched.entries()];
      await manager.query(APPLY_DELTAS, [d.map(() => organizationId), d.map(([id]) => id), d.map(([, x]) => x.alerts), d.map(([, x]) => x.firing), d.map(([, x]) => x.lastResolution)]);
    }
    return result;
  }

  private async existingPhase(manager: EntityManager, organizationId: string, integrationId: string, alert: AdmittedAlert, phaseAt: Timestamp): Promise<string | undefined> {
    const rows = await manager.query(
      'SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 AND status = $4 AND phase_at = $5',
      [organizationId, integrationId, alert.fingerprint, alert.status, phaseAt],
    ) as { incident_id: string }[];
    return rows[0]?.incident_id;
  }

  private async lockOpenIncident(manager: EntityManager, organizationId: string, integrationId: string, groupKey: string): Promise<string | undefined> {
    const rows = await manager.query(
      `SELECT id FROM incidents WHERE organization_id = $1 AND integration_id = $2 AND group_key = $3 AND status = 'open' FOR UPDATE`,
      [organizationId, integrationId, groupKey],
    ) as { id: string }[];
    return rows[0]?.id;
  }

  /** The group's open incident, locked; opened now if there is none (the partial unique index decides races). */
  private async openIncident(manager: EntityManager, organizationId: string, input: AdmissionInput, group: Group, alert: AdmittedAlert, phaseAt: Timestamp): Promise<string> {
    await manager.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $6::jsonb, $7)
       ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING`,
      [organizationId, newId(), input.integrationId, group.key, titleOf(alert, group.labels), JSON.stringify(group.labels), phaseAt],
    );
    const id = await this.lockOpenIncident(manager, organizationId, input.integrationId, group.key);
    // Resolved by a concurrent admission between the insert and the lock: the sender retries.
    if (!id) throw new Error(`The open incident of group ${group.key} was resolved concurrently`);
    return id;
  }

  /**
   * A resolution goes to the group's open incident, else to the latest incident that saw this
   * alert, else (a resolution for an alert never seen firing) to a new incident, resolved at once.
   */
  private async incidentForResolution(manager: EntityManager, organizationId: string, input: AdmissionInput, group: Group, alert: AdmittedAlert, phaseAt: Timestamp): Promise<string> {
    const open = await this.lockOpenIncident(manager, organizationId, input.integrationId, group.key);
    if (open) return open;
    const seen = await manager.query(
      `SELECT i.id FROM incidents i
        WHERE i.organization_id = $1
          AND i.id = (SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 ORDER BY received_at DESC LIMIT 1)
        FOR UPDATE`,
      [organizationId, input.integrationId, alert.fingerprint],
    ) as { id: string }[];
    if (seen[0]) return seen[0].id;
    const id = newId();
    await manager.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at, resolved_at)
       VALUES ($1, $2, $3, $4, 'resolved', $5, $6::jsonb, $7, $8)`,
      [organizationId, id, input.integrationId, group.key, titleOf(alert, group.labels), JSON.stringify(group.labels), alert.startsAt, phaseAt],
    );
    return id;
  }
}
