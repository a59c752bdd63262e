import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId, Timestamp } from '@svc/platform';
import { CHANGE_LIMITS } from './formats/normalized-change';

/** A call between two services, by name as a series wrote them. */
export interface ServicePair {
  caller: string;
  callee: string;
}

/** How far dependencies are followed: what the alerting services call, what those call, and one more step. */
export const DEPENDENCY_DEPTH = 3;
/** The most dependencies an incident's changes are read for. */
export const MAX_DEPENDENCIES = 50;

/** The calls between the Organization's services that investigations saw: recorded, followed, forgotten. */
@Injectable()
export class ServiceCallsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records the pairs seen (a pair seen before is seen again: its time and investigation move on). */
  async record(organizationId: string, origin: { integrationId: string; investigationId: string }, pairs: ReadonlyArray<ServicePair>): Promise<void> {
    const distinct = [
      ...new Map(
        pairs
          .filter((p) => p.caller && p.callee && p.caller.toLowerCase() !== p.callee.toLowerCase())
          .map((p) => [`${p.caller.toLowerCase()}\n${p.callee.toLowerCase()}`, p]),
      ).values(),
    ];
    if (distinct.length === 0) return;
    await this.dataSource.query(
      `INSERT INTO service_calls (organization_id, id, caller, caller_key, callee, callee_key, integration_id, investigation_id)
       SELECT $1, p.id, p.caller, lower(p.caller), p.callee, lower(p.callee), $2, $3
         FROM unnest($4::uuid[], $5::text[], $6::text[]) AS p(id, caller, callee)
       ON CONFLICT (organization_id, caller_key, callee_key) DO UPDATE
         SET caller = excluded.caller, callee = excluded.callee, integration_id = excluded.integration_id,
             investigation_id = excluded.investigation_id, last_seen_at = clock_timestamp()`,
      [
        organizationId,
        origin.integrationId,
        origin.investigationId,
        distinct.map(() => newId()),
        distinct.map((p) => p.caller.slice(0, CHANGE_LIMITS.maxNameLength)),
        distinct.map((p) => p.callee.slice(0, CHANGE_LIMITS.maxNameLength)),
      ],
    );
  }

  /**
   * What the services call, directly or through up to DEPENDENCY_DEPTH calls, nearest first, at
   * most MAX_DEPENDENCIES, the services themselves left out; each named as a series last wrote it.
   */
  async dependenciesOf(organizationId: string, services: string[]): Promise<string[]> {
    const keys = [...new Set(services.map((s) => s.toLowerCase()))];
    if (keys.length === 0) return [];
    const rows = (await this.dataSource.query(
      `WITH RECURSIVE reach(key, name, depth) AS (
         SELECT callee_key, callee, 1 FROM service_calls WHERE organization_id = $1 AND caller_key = ANY($2)
         UNION
         SELECT c.callee_key, c.callee, r.depth + 1
           FROM service_calls c JOIN reach r ON c.caller_key = r.key
          WHERE c.organization_id = $1 AND r.depth < $3
       )
       SELECT key, min(name) AS name, min(depth) AS depth FROM reach WHERE NOT key = ANY($2)
        GROUP BY key ORDER BY min(depth), key LIMIT $4`,
      [organizationId, keys, DEPENDENCY_DEPTH, MAX_DEPENDENCIES],
    )) as { name: string }[];
    return rows.map((r) => r.name);
  }

  /** The Organizations with calls not seen since `before` (what a retention sweep visits). */
  async organizationsWithCallsSeenBeforeAcrossOrganizations(before: Timestamp): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT DISTINCT organization_id FROM service_calls WHERE last_seen_at < $1', [before.toPostgres()])) as {
      organization_id: string;
    }[];
    return rows.map((r) => r.organization_id);
  }

  /** Forgets the Organization's calls not seen since `before`; how many. */
  async deleteSeenBefore(organizationId: string, before: Timestamp, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [, count] = (await manager.query('DELETE FROM service_calls WHERE organization_id = $1 AND last_seen_at < $2', [
      organizationId,
      before.toPostgres(),
    ])) as [unknown, number];
    return count;
  }
}
