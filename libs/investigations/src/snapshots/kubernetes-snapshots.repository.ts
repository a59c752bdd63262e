import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newId, Timestamp } from '@svc/platform';
import type { SnapshotRun } from './kubernetes-snapshot.entity';

/** A snapshot as read: when it was taken (null while a worker takes it) and its runs. */
export interface SnapshotRecord {
  incidentId: string;
  takenAt: Timestamp | null;
  runs: SnapshotRun[];
}

/** The incidents' Kubernetes snapshots: claimed by one worker, saved once, read by investigations and the API. */
@Injectable()
export class KubernetesSnapshotsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims the incident's snapshot for this worker: true when no worker took it, or one claimed
   * it more than `staleSeconds` ago and never finished (it died); false otherwise.
   */
  async claim(organizationId: string, incidentId: string, now: Timestamp, staleSeconds: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO incident_kubernetes_snapshots (organization_id, id, incident_id, claimed_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, incident_id) DO UPDATE SET claimed_at = excluded.claimed_at
         WHERE incident_kubernetes_snapshots.taken_at IS NULL AND incident_kubernetes_snapshots.claimed_at < $5
       RETURNING id`,
      [organizationId, newId(), incidentId, now.toISOString(), now.plusSeconds(-staleSeconds).toISOString()],
    )) as unknown[];
    return rows.length > 0;
  }

  async save(organizationId: string, incidentId: string, runs: SnapshotRun[], takenAt: Timestamp): Promise<void> {
    await this.dataSource.query(`UPDATE incident_kubernetes_snapshots SET runs = $3::jsonb, taken_at = $4 WHERE organization_id = $1 AND incident_id = $2`, [
      organizationId,
      incidentId,
      JSON.stringify(runs),
      takenAt.toISOString(),
    ]);
  }

  /** Which of the incidents have a snapshot claimed or taken. */
  async claimedAmong(organizationId: string, incidentIds: string[], now: Timestamp, staleSeconds: number): Promise<Set<string>> {
    if (!incidentIds.length) return new Set();
    const rows = (await this.dataSource.query(
      `SELECT incident_id FROM incident_kubernetes_snapshots WHERE organization_id = $1 AND incident_id = ANY($2::uuid[]) AND (taken_at IS NOT NULL OR claimed_at >= $3)`,
      [organizationId, incidentIds, now.plusSeconds(-staleSeconds).toISOString()],
    )) as Array<{ incident_id: string }>;
    return new Set(rows.map((r) => r.incident_id));
  }

  async find(organizationId: string, incidentId: string): Promise<SnapshotRecord | null> {
    const [row] = (await this.dataSource.query(
      `SELECT incident_id, taken_at, runs FROM incident_kubernetes_snapshots WHERE organization_id = $1 AND incident_id = $2`,
      [organizationId, incidentId],
    )) as Array<{ incident_id: string; taken_at: Timestamp | null; runs: SnapshotRun[] }>;
    return row ? { incidentId: row.incident_id, takenAt: row.taken_at, runs: row.runs } : null;
  }
}
