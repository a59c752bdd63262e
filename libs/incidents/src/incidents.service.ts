import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@svc/audit';
import {
  AuditContext,
  byTimeThenId,
  ConflictError,
  CursorCodec,
  InjectScopedRepository,
  InvalidInputError,
  keysetPage,
  NotFoundError,
  Page,
  PageRequest,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { AlertEvent } from './alert-event.entity';
import { Incident, IncidentStatus } from './incident.entity';
import { AlertPhaseRecord, alertPhaseRecord, IncidentAlertScope, IncidentHistory, incidentRecord } from './incident-history';
import { IncidentTriage, SERVICE_LABELS, triageOf } from './incident-triage';
import { IncidentsRepository } from './incidents.repository';

const NEWEST_FIRST = byTimeThenId<Incident>('i', 'opened_at', (i) => i.openedAt, 'DESC');
const OLDEST_FIRST = byTimeThenId<Incident>('i', 'opened_at', (i) => i.openedAt, 'ASC');
const EVENTS_OLDEST_FIRST = byTimeThenId<AlertEvent>('e', 'received_at', (e) => e.receivedAt, 'ASC');

@Injectable()
export class IncidentsService {
  constructor(
    @InjectScopedRepository(Incident) private readonly incidents: ScopedRepository<Incident>,
    @InjectScopedRepository(AlertEvent) private readonly events: ScopedRepository<AlertEvent>,
    private readonly repository: IncidentsRepository,
    private readonly cursors: CursorCodec,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Moves the alert events of other incidents into the target and marks them merged into it. The
   * target's state follows its alerts: it is open while any of them fires (reopened if needed,
   * unless its group already has another open incident: 409), resolved otherwise.
   */
  async merge(organizationId: string, targetId: string, sourceIds: string[], context: AuditContext): Promise<Incident> {
    const sources = [...new Set(sourceIds)];
    if (sources.includes(targetId)) throw new InvalidInputError('Invalid input: incidentIds must not include the target incident');
    return this.dataSource.transaction(async (manager) => {
      const repo = this.incidents.withManager(manager);
      // Locked in id order, like every other multi-incident change, so merges cannot deadlock each other.
      const locked = await repo
        .query(organizationId, 'i')
        .andWhere('i.id IN (:...ids)', { ids: [targetId, ...sources] })
        .orderBy('i.id', 'ASC')
        .setLock('pessimistic_write')
        .getMany();
      const target = locked.find((i) => i.id === targetId);
      if (!target) throw new NotFoundError('Incident');
      const missing = sources.filter((id) => !locked.some((i) => i.id === id));
      if (missing.length > 0) throw new NotFoundError(`Incident ${missing[0]}`);
      if (target.status === 'merged') throw new ConflictError('The target incident was itself merged; merge into the incident it was merged into');
      const already = locked.filter((i) => sources.includes(i.id) && i.status === 'merged');
      if (already.length > 0) throw new ConflictError(`Incident ${already[0].id} is already merged`);
      await this.repository.moveAlertEvents(organizationId, sources, targetId, manager);
      await this.repository.markMerged(organizationId, sources, targetId, manager);
      await this.recompute(manager, organizationId, targetId, sources);
      await this.audit.record(manager, organizationId, context, { action: 'incident.merge', targetKind: 'incident', targetId, detail: { merged: sources } });
      return (await repo.findById(organizationId, targetId))!;
    });
  }

  /**
   * Rebuilds an incident's alert state from its events (after a merge, which is rare): the latest
   * phase of each alert, the counts, and the status, reopening a resolved incident whose alerts
   * fire again unless its group already has another open incident (409).
   */
  private async recompute(manager: EntityManager, organizationId: string, incidentId: string, mergedIds: string[]): Promise<void> {
    await this.repository.deleteAlertStates(organizationId, [incidentId, ...mergedIds], manager);
    await this.repository.rebuildAlertStates(organizationId, incidentId, manager);
    const state = await this.repository.alertCounts(organizationId, incidentId, manager);
    const repo = this.incidents.withManager(manager);
    const incident = (await repo.findById(organizationId, incidentId))!;
    const patch: Partial<Incident> = {
      alertCount: state.alerts,
      firingCount: state.firing,
      lastResolutionAt: state.lastResolution,
      updatedAt: Timestamp.now(),
    };
    if (incident.status === 'open' && state.firing === 0 && state.alerts > 0) {
      patch.status = 'resolved';
      patch.resolvedAt = state.lastResolution ?? Timestamp.now();
    }
    if (incident.status === 'resolved' && state.firing > 0) {
      const other = await repo
        .query(organizationId, 'i')
        .andWhere('i.integration_id = :integrationId AND i.group_key = :groupKey AND i.status = :open AND i.id <> :id', {
          integrationId: incident.integrationId,
          groupKey: incident.groupKey,
          open: 'open',
          id: incidentId,
        })
        .getOne();
      if (other)
        throw new ConflictError(`Firing alerts would reopen this incident, but its group already has open incident ${other.id}: merge into that one instead`);
      patch.status = 'open';
      patch.resolvedAt = null;
    }
    await repo.update(organizationId, { id: incidentId }, patch);
  }

  async list(
    organizationId: string,
    filters: { status?: IncidentStatus; from?: string; until?: string; order?: 'newest' | 'oldest' },
    page: PageRequest,
  ): Promise<Page<Incident>> {
    const query = this.incidents.query(organizationId, 'i').andWhere(
      new Brackets((qb) => {
        qb.where('TRUE');
        if (filters.status) qb.andWhere('i.status = :status', { status: filters.status });
        if (filters.from) qb.andWhere('i.opened_at >= :from', { from: Timestamp.parse(filters.from) });
        if (filters.until) qb.andWhere('i.opened_at < :until', { until: Timestamp.parse(filters.until) });
      }),
    );
    return keysetPage(
      query,
      this.cursors,
      { scope: organizationId, collection: `incidents?${filters.status ?? ''}&${filters.from ?? ''}&${filters.until ?? ''}&${filters.order ?? 'newest'}` },
      filters.order === 'oldest' ? OLDEST_FIRST : NEWEST_FIRST,
      page,
    );
  }

  /** Each incident's triage (headline, severity, service, namespace) from its alerts' latest phases. */
  async triage(organizationId: string, incidents: Incident[]): Promise<Map<string, IncidentTriage>> {
    const alerts = await this.repository.latestAlertPhases(
      organizationId,
      incidents.map((i) => i.id),
    );
    return new Map(incidents.map((i) => [i.id, triageOf(alerts.get(i.id) ?? [], i.title)]));
  }

  async get(organizationId: string, id: string): Promise<Incident> {
    const incident = await this.incidents.findById(organizationId, id);
    if (!incident) throw new NotFoundError('Incident');
    return incident;
  }

  async alertEvents(organizationId: string, incidentId: string, page: PageRequest): Promise<Page<AlertEvent>> {
    await this.get(organizationId, incidentId);
    const query = this.events.query(organizationId, 'e').andWhere('e.incident_id = :incidentId', { incidentId });
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `incidents/${incidentId}/alert-events` }, EVENTS_OLDEST_FIRST, page);
  }

  /**
   * What the incident's alerts name, for reading what else happened around it (the changes before
   * it): when its first alert began, and the services their labels name (among its newest alert
   * phases, as its triage reads them).
   */
  async alertScope(organizationId: string, incidentId: string): Promise<IncidentAlertScope> {
    const incident = await this.get(organizationId, incidentId);
    const [phases, firstAlertAt] = await Promise.all([
      this.repository.latestAlertPhases(organizationId, [incidentId]),
      this.repository.firstAlertStart(organizationId, incidentId),
    ]);
    const alerts = phases.get(incidentId) ?? [];
    return {
      incident: incidentRecord(incident),
      firstAlertAt: firstAlertAt ?? incident.openedAt,
      services: [...new Set(alerts.flatMap((a) => SERVICE_LABELS.map((n) => a.labels[n]).filter((v): v is string => Boolean(v))))],
    };
  }

  /**
   * The Organization's incidents still open that the service opened since `since` (their
   * `createdAt`; `openedAt` is their first alert's time, at most `alertsWithin` seconds before),
   * oldest first.
   */
  async openedSince(organizationId: string, since: Timestamp, alertsWithin: number, limit: number): Promise<Array<{ id: string; openedAt: Timestamp }>> {
    return this.repository.openedSince(organizationId, since, since.plusSeconds(-alertsWithin), limit);
  }

  /** The labels of each of the incident's alerts, as its latest phase gives them (among its newest phases, as its triage reads them). */
  async alertLabels(organizationId: string, incidentId: string): Promise<Array<Record<string, string>>> {
    const phases = await this.repository.latestAlertPhases(organizationId, [incidentId]);
    return (phases.get(incidentId) ?? []).map((a) => a.labels);
  }

  /**
   * The incident's recorded history, for documents written about it (postmortems): the incident,
   * its earliest `limit` alert phases in time order with the total, and the incidents merged into it.
   */
  async history(organizationId: string, incidentId: string, limit: number): Promise<IncidentHistory> {
    const incident = await this.get(organizationId, incidentId);
    const [events, alertEventTotal, merged] = await Promise.all([
      limit > 0 ? this.events.find(organizationId, { where: { incidentId }, order: { phaseAt: 'ASC', receivedAt: 'ASC', id: 'ASC' }, take: limit }) : [],
      this.events.count(organizationId, { incidentId }),
      this.incidents.find(organizationId, { where: { mergedInto: incidentId }, order: { updatedAt: 'ASC', id: 'ASC' } }),
    ]);
    return {
      incident: incidentRecord(incident),
      alertEvents: events.map((e): AlertPhaseRecord => alertPhaseRecord(e)),
      alertEventTotal,
      merged: merged.map(incidentRecord),
    };
  }
}
