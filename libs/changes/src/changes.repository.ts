import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { byTimeThenId, CursorCodec, InjectScopedRepository, keysetPage, newId, Page, PageRequest, ScopedRepository, Timestamp } from '@svc/platform';
import { ChangeEvent } from './change-event.entity';
import type { ChangeKind, ChangeSource, NormalizedChange } from './formats/normalized-change';

const NEWEST_FIRST = byTimeThenId<ChangeEvent>('c', 'occurred_at', (c) => c.occurredAt, 'DESC');
const OLDEST_FIRST = byTimeThenId<ChangeEvent>('c', 'occurred_at', (c) => c.occurredAt, 'ASC');

export interface ChangeFilter {
  /** Occurred at or after. */
  from?: Timestamp;
  /** Occurred before. */
  until?: Timestamp;
  /** Matched without regard to case. */
  service?: string;
  kind?: ChangeKind;
  integrationId?: string;
}

/** What brought a change: a delivery through a changes integration, or an investigation that saw it through a Prometheus integration. */
export type ChangeOrigin =
  { integrationId: string; deliveryId: string; investigationId: null } | { integrationId: string; deliveryId: null; investigationId: string };

/** A change as recorded: its id, and whether this delivery brought it first or repeated it. */
export interface RecordedChange {
  id: string;
  externalId: string;
  duplicate: boolean;
}

/** The Organization's recorded changes: recording a delivery's, reading them by time, deleting the old. */
@Injectable()
export class ChangesRepository {
  constructor(
    @InjectScopedRepository(ChangeEvent) private readonly changes: ScopedRepository<ChangeEvent>,
    private readonly cursors: CursorCodec,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Records the changes of one delivery in one statement; a change whose sender id the integration
   * already brought is a duplicate and keeps its first record. Answers in the order given (the same
   * sender id twice in one delivery: the second is a duplicate of the first).
   */
  async record(
    organizationId: string,
    origin: ChangeOrigin,
    source: ChangeSource,
    changes: NormalizedChange[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<RecordedChange[]> {
    if (changes.length === 0) return [];
    const distinct = [...new Map(changes.map((c) => [c.externalId, c])).values()];
    const inserted = (await manager.query(
      `INSERT INTO change_events (organization_id, id, integration_id, delivery_id, investigation_id, source, external_id, occurred_at, service,
                                  service_key, environment, kind, summary, author, version_before, version_after, links, details)
       SELECT $1, c.id, $2, $3, $17, $4, c.external_id, c.occurred_at, c.service, lower(c.service), c.environment, c.kind, c.summary, c.author,
              c.version_before, c.version_after, c.links, c.details
         FROM unnest($5::uuid[], $6::text[], $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[],
                     $14::text[], $15::jsonb[], $16::jsonb[])
              AS c(id, external_id, occurred_at, service, environment, kind, summary, author, version_before, version_after, links, details)
       ON CONFLICT (organization_id, integration_id, external_id) DO NOTHING
       RETURNING external_id`,
      [
        organizationId,
        origin.integrationId,
        origin.deliveryId,
        source,
        distinct.map(() => newId()),
        distinct.map((c) => c.externalId),
        distinct.map((c) => c.occurredAt.toPostgres()),
        distinct.map((c) => c.service),
        distinct.map((c) => c.environment),
        distinct.map((c) => c.kind),
        distinct.map((c) => c.summary),
        distinct.map((c) => c.author),
        distinct.map((c) => c.versionBefore),
        distinct.map((c) => c.versionAfter),
        distinct.map((c) => JSON.stringify(c.links)),
        distinct.map((c) => JSON.stringify(c.details)),
        origin.investigationId,
      ],
    )) as { external_id: string }[];
    const fresh = new Set(inserted.map((r) => r.external_id));
    const ids = new Map(
      (
        (await manager.query('SELECT id, external_id FROM change_events WHERE organization_id = $1 AND integration_id = $2 AND external_id = ANY($3)', [
          organizationId,
          origin.integrationId,
          distinct.map((c) => c.externalId),
        ])) as { id: string; external_id: string }[]
      ).map((r) => [r.external_id, r.id]),
    );
    const seen = new Set<string>();
    return changes.map((c) => {
      const first = fresh.has(c.externalId) && !seen.has(c.externalId);
      seen.add(c.externalId);
      return { id: ids.get(c.externalId)!, externalId: c.externalId, duplicate: !first };
    });
  }

  /** One page of the changes matching the filter, newest first (or oldest first: a timeline). */
  page(organizationId: string, filter: ChangeFilter, page: PageRequest, order: 'newest' | 'oldest' = 'newest'): Promise<Page<ChangeEvent>> {
    const query = this.changes.query(organizationId, 'c').andWhere(
      new Brackets((qb) => {
        qb.where('TRUE');
        if (filter.from) qb.andWhere('c.occurred_at >= :from', { from: filter.from });
        if (filter.until) qb.andWhere('c.occurred_at < :until', { until: filter.until });
        if (filter.service) qb.andWhere('c.service_key = :service', { service: filter.service.toLowerCase() });
        if (filter.kind) qb.andWhere('c.kind = :kind', { kind: filter.kind });
        if (filter.integrationId) qb.andWhere('c.integration_id = :integrationId', { integrationId: filter.integrationId });
      }),
    );
    // The filter is part of the cursor's binding: a cursor of one listing is refused by another.
    const collection = `changes?${filter.from?.toISOString() ?? ''}&${filter.until?.toISOString() ?? ''}&${filter.service?.toLowerCase() ?? ''}&${filter.kind ?? ''}&${filter.integrationId ?? ''}`;
    return keysetPage(query, this.cursors, { scope: organizationId, collection }, order === 'oldest' ? OLDEST_FIRST : NEWEST_FIRST, page);
  }

  /**
   * One page, oldest first, of the changes in a window that concern the given services (case
   * aside) or name no service at all (a change to everything: a cluster upgrade, a shared
   * configuration). With no services, every change of the window.
   */
  pageAround(organizationId: string, window: { from: Timestamp; until: Timestamp | null }, services: string[], page: PageRequest): Promise<Page<ChangeEvent>> {
    const { query, keys } = this.around(organizationId, window, services);
    const collection = `changes-around?${window.from.toISOString()}&${window.until?.toISOString() ?? ''}&${keys.join(',')}`;
    return keysetPage(query, this.cursors, { scope: organizationId, collection }, OLDEST_FIRST, page);
  }

  /** How many changes pageAround pages through, counted up to `cap` (`cap + 1`: more than `cap`). */
  async countAround(organizationId: string, window: { from: Timestamp; until: Timestamp | null }, services: string[], cap: number): Promise<number> {
    const [sql, parameters] = this.around(organizationId, window, services)
      .query.select('1')
      .limit(cap + 1)
      .getQueryAndParameters();
    const [row] = (await this.dataSource.query(`SELECT count(*)::int AS count FROM (${sql}) AS matched`, parameters)) as { count: number }[];
    return row.count;
  }

  /** The changes of a window on the services (without regard to case) and those naming none; every change of it without services. */
  private around(organizationId: string, window: { from: Timestamp; until: Timestamp | null }, services: string[]) {
    const keys = [...new Set(services.map((s) => s.toLowerCase()))];
    const query = this.changes.query(organizationId, 'c').andWhere('c.occurred_at >= :from', { from: window.from });
    if (window.until) query.andWhere('c.occurred_at < :until', { until: window.until });
    if (keys.length > 0) query.andWhere(new Brackets((qb) => qb.where('c.service_key IS NULL').orWhere('c.service_key = ANY(:keys)', { keys })));
    return { query, keys };
  }

  findById(organizationId: string, id: string): Promise<ChangeEvent | null> {
    return this.changes.findById(organizationId, id);
  }

  /** The Organizations that have changes that occurred before `before` (what a retention sweep visits). */
  async organizationsWithChangesBeforeAcrossOrganizations(before: Timestamp): Promise<string[]> {
    const rows = (await this.dataSource.query('SELECT DISTINCT organization_id FROM change_events WHERE occurred_at < $1', [before])) as {
      organization_id: string;
    }[];
    return rows.map((r) => r.organization_id);
  }

  /** Deletes up to `limit` of the Organization's changes that occurred before `before`, oldest first; how many it deleted. */
  async deleteBefore(organizationId: string, before: Timestamp, limit: number, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [, count] = (await manager.query(
      `DELETE FROM change_events WHERE organization_id = $1 AND id IN (
         SELECT id FROM change_events WHERE organization_id = $1 AND occurred_at < $2 ORDER BY occurred_at LIMIT $3)`,
      [organizationId, before.toPostgres(), limit],
    )) as [unknown, number];
    return count;
  }
}
