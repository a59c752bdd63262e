import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Timestamp } from '@svc/platform';
import type { RevisionKind } from './postmortem.types';

/** A kept revision as listed: what made it, who and when (the document itself stays in the row). */
export interface RevisionSummary {
  revision: number;
  kind: RevisionKind;
  createdBy: string;
  createdAt: Timestamp;
}

/** The statements on postmortems that the scoped repository does not express: row locks and the revision listing. */
@Injectable()
export class PostmortemsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Locks the incident's postmortem until the transaction ends; its id, or undefined when it has none. */
  async lockByIncident(organizationId: string, incidentId: string, manager: EntityManager = this.dataSource.manager): Promise<string | undefined> {
    const rows = (await manager.query('SELECT id FROM postmortems WHERE organization_id = $1 AND incident_id = $2 FOR UPDATE', [
      organizationId,
      incidentId,
    ])) as {
      id: string;
    }[];
    return rows[0]?.id;
  }

  /** Locks the postmortem until the transaction ends; its revision, or undefined when it does not exist. */
  async lockById(organizationId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<number | undefined> {
    const rows = (await manager.query('SELECT revision FROM postmortems WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, id])) as {
      revision: number;
    }[];
    return rows[0]?.revision;
  }

  /** The kept revisions of a postmortem, oldest first. */
  async revisions(organizationId: string, postmortemId: string, manager: EntityManager = this.dataSource.manager): Promise<RevisionSummary[]> {
    const rows = (await manager.query(
      `SELECT revision, kind, created_by, created_at FROM postmortem_revisions
        WHERE organization_id = $1 AND postmortem_id = $2 ORDER BY revision`,
      [organizationId, postmortemId],
    )) as { revision: number; kind: RevisionKind; created_by: string; created_at: Timestamp }[];
    return rows.map((r) => ({ revision: r.revision, kind: r.kind, createdBy: r.created_by, createdAt: r.created_at }));
  }
}
