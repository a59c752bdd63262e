import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Timestamp } from '@svc/platform';
import type { TriageAlert } from './incident-triage';

/** An incident's alert counts as its stored alert states give them. */
export interface IncidentAlertCounts {
  alerts: number;
  firing: number;
  lastResolution: Timestamp | null;
}

/** The statements of merging incidents: moving events between incidents and rebuilding alert state. */
/** The most alert phases of one incident that its triage reads (its newest). */
export const TRIAGE_PHASES = 500;

@Injectable()
export class IncidentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Moves the alert events of the source incidents into the target. */
  async moveAlertEvents(organizationId: string, sourceIds: string[], targetId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('UPDATE alert_events SET incident_id = $3 WHERE organization_id = $1 AND incident_id = ANY($2)', [organizationId, sourceIds, targetId]);
  }

  async markMerged(organizationId: string, sourceIds: string[], targetId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE incidents SET status = 'merged', merged_into = $3, updated_at = clock_timestamp() WHERE organization_id = $1 AND id = ANY($2)`,
      [organizationId, sourceIds, targetId],
    );
  }

  async deleteAlertStates(organizationId: string, incidentIds: string[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('DELETE FROM incident_alerts WHERE organization_id = $1 AND incident_id = ANY($2)', [organizationId, incidentIds]);
  }

  /** Stores the latest phase of each alert of the incident, as its events give them (a resolution wins a tie). */
  async rebuildAlertStates(organizationId: string, incidentId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at)
       SELECT DISTINCT ON (fingerprint) organization_id, incident_id, fingerprint, status, phase_at FROM alert_events
        WHERE organization_id = $1 AND incident_id = $2
        ORDER BY fingerprint, phase_at DESC, (status = 'resolved') DESC`,
      [organizationId, incidentId],
    );
  }

  async alertCounts(organizationId: string, incidentId: string, manager: EntityManager = this.dataSource.manager): Promise<IncidentAlertCounts> {
    const [state] = (await manager.query(
      `SELECT count(*)::int AS alerts, count(*) FILTER (WHERE status = 'firing')::int AS firing,
              (SELECT max(phase_at) FROM alert_events WHERE organization_id = $1 AND incident_id = $2 AND status = 'resolved') AS last_resolution
         FROM incident_alerts WHERE organization_id = $1 AND incident_id = $2`,
      [organizationId, incidentId],
    )) as { alerts: number; firing: number; last_resolution: Timestamp | null }[];
    return { alerts: state.alerts, firing: state.firing, lastResolution: state.last_resolution };
  }

  /** When the earliest alert of the incident began firing; null when it holds no firing phase. */
  async firstAlertStart(organizationId: string, incidentId: string, manager: EntityManager = this.dataSource.manager): Promise<Timestamp | null> {
    const [row] = (await manager.query(
      `SELECT min(starts_at) AS first FROM alert_events WHERE organization_id = $1 AND incident_id = $2 AND status = 'firing'`,
      [organizationId, incidentId],
    )) as { first: Timestamp | null }[];
    return row?.first ?? null;
  }

  /** The open incidents created since `since` whose first alert began since `openedSince` (the index on opened_at bounds the read), oldest first. */
  async openedSince(organizationId: string, since: Timestamp, openedSince: Timestamp, limit: number): Promise<Array<{ id: string; openedAt: Timestamp }>> {
    const rows = (await this.dataSource.query(
      `SELECT id, opened_at FROM incidents
        WHERE organization_id = $1 AND opened_at >= $3 AND status = 'open' AND created_at >= $2
        ORDER BY created_at, id LIMIT $4`,
      [organizationId, since.toISOString(), openedSince.toISOString(), limit],
    )) as Array<{ id: string; opened_at: Timestamp }>;
    return rows.map((r) => ({ id: r.id, openedAt: r.opened_at }));
  }

  /**
   * The latest phase of each alert of the incidents (their labels, annotations and start), by
   * incident, among each incident's newest TRIAGE_PHASES phases: a listing page costs the same
   * whether its incidents hold ten alerts or a million.
   */
  async latestAlertPhases(organizationId: string, incidentIds: string[]): Promise<Map<string, TriageAlert[]>> {
    const byIncident = new Map<string, TriageAlert[]>(incidentIds.map((id) => [id, []]));
    if (incidentIds.length === 0) return byIncident;
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT ON (i.id, e.fingerprint) i.id AS incident_id, e.labels, e.annotations, e.starts_at
         FROM unnest($2::uuid[]) AS i(id)
         CROSS JOIN LATERAL (
           SELECT fingerprint, labels, annotations, starts_at, phase_at, received_at FROM alert_events
            WHERE organization_id = $1 AND incident_id = i.id
            ORDER BY received_at DESC, id DESC LIMIT $3) e
        ORDER BY i.id, e.fingerprint, e.phase_at DESC, e.received_at DESC`,
      [organizationId, incidentIds, TRIAGE_PHASES],
    )) as Array<{ incident_id: string; labels: Record<string, string>; annotations: Record<string, string>; starts_at: Timestamp }>;
    for (const row of rows)
      byIncident.get(row.incident_id)?.push({ labels: row.labels, annotations: row.annotations, startsAt: Number(row.starts_at.epochMicros / 1000n) });
    return byIncident;
  }
}
