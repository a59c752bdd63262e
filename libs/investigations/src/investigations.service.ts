import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IncidentsService } from '@svc/incidents';
import {
  AuditContext,
  byTimeThenId,
  ConflictError,
  CursorCodec,
  InjectScopedRepository,
  KeysetOrdering,
  keysetPage,
  newId,
  NotFoundError,
  Outbox,
  Page,
  PageRequest,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { ActivityService, envelopeOf } from './activity.service';
import {
  ActivityPage,
  HypothesesView,
  hypothesesView,
  InvestigationPage,
  InvestigationSourcesView,
  InvestigationView,
  investigationView,
  RunSeriesView,
  runSeriesView,
  RunTemplatesView,
  runTemplatesView,
  sourcesView,
} from './dto/investigation.view';
import { CitedChange, InvestigationRecord, investigationRecord } from './investigation-record';
import { CHANGES_TOOL, RecordedChange } from './reasoning/recorded-changes';
import { investigationReport } from './investigation-report';
import { InvestigationActivity } from './investigation-activity.entity';
import { InvestigationSource } from './investigation-source.entity';
import { Investigation, InvestigationStatus, TERMINAL_STATUSES } from './investigation.entity';
import { ToolRun } from './tool-run.entity';
import { InvestigationsRepository } from './investigations.repository';
import { ToolRunsRepository } from './tool-runs.repository';
import type { ConversationContext, TurnOpening } from './turn.types';

export const INVESTIGATIONS_QUEUE = 'investigations';
export const RUN_INVESTIGATION_JOB = 'investigation.run';

const NEWEST_FIRST = byTimeThenId<Investigation>('i', 'created_at', (i) => i.createdAt, 'DESC');
const BY_SEQUENCE: KeysetOrdering<InvestigationActivity> = {
  name: 'sequence',
  direction: 'ASC',
  columns: [{ expression: 'a.sequence', read: (a) => a.sequence }],
};

/** How far before the incident opened an investigation looks, to see what changed at the onset. */
const LOOK_BEFORE_MICROS = 60n * 60n * 1_000_000n;
/** How far after a resolution it looks. */
const LOOK_AFTER_MICROS = 15n * 60n * 1_000_000n;

/**
 * The window an investigation of an incident reads: from an hour before it opened (to see what
 * changed at the onset) to fifteen minutes after it resolved, or `now` if that is earlier.
 */
export function incidentWindow(incident: { openedAt: Timestamp; resolvedAt: Timestamp | null }, now: Timestamp): { from: Timestamp; until: Timestamp } {
  const from = Timestamp.fromEpochMicros(incident.openedAt.epochMicros - LOOK_BEFORE_MICROS);
  const after = incident.resolvedAt ? Timestamp.fromEpochMicros(incident.resolvedAt.epochMicros + LOOK_AFTER_MICROS) : now;
  return { from, until: after.isAfter(now) ? now : after };
}

/**
 * Investigations as people see them: opening one (queued, with its job in the outbox), reading
 * it with its runs, sources, activity and hypotheses, and cancelling it. The worker's side is
 * the InvestigationEngine.
 */
@Injectable()
export class InvestigationsService {
  constructor(
    @InjectScopedRepository(Investigation) private readonly investigations: ScopedRepository<Investigation>,
    @InjectScopedRepository(ToolRun) private readonly runs: ScopedRepository<ToolRun>,
    @InjectScopedRepository(InvestigationSource) private readonly sources: ScopedRepository<InvestigationSource>,
    @InjectScopedRepository(InvestigationActivity) private readonly activityRows: ScopedRepository<InvestigationActivity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly incidents: IncidentsService,
    private readonly activity: ActivityService,
    private readonly outbox: Outbox,
    private readonly audit: AuditService,
    private readonly cursors: CursorCodec,
    private readonly repository: InvestigationsRepository,
    private readonly toolRuns: ToolRunsRepository,
  ) {}

  /**
   * Queues an investigation of the incident. Its window runs from an hour before the incident
   * opened (to see what changed at the onset) to fifteen minutes after it resolved, or now.
   */
  async open(organizationId: string, incidentId: string, context: AuditContext): Promise<Investigation> {
    const openedBy = context.actorKind === 'api_token' ? `token:${context.actorId}` : (context.actorId ?? context.actorKind);
    const incident = await this.incidents.get(organizationId, incidentId);
    // Named by the alert that tells what is wrong, as the incident list names it.
    const { headline } = (await this.incidents.triage(organizationId, [incident])).get(incident.id)!;
    const now = Timestamp.now();
    const { from: windowFrom, until: windowUntil } = incidentWindow(incident, now);
    const id = newId();
    await this.dataSource.transaction(async (manager) => {
      await this.investigations.withManager(manager).insert(organizationId, {
        id,
        incidentId,
        status: 'queued',
        subject: `What caused "${headline}"?`.slice(0, 1024),
        windowFrom,
        windowUntil,
        openedBy,
        reasoner: null,
        impact: null,
        findings: [],
        hypotheses: [],
        actions: [],
        limitations: [],
        conclusionStatus: null,
        summary: null,
        stoppedBy: null,
        error: null,
        inputTokens: 0,
        outputTokens: 0,
        lastSequence: 0,
        attempts: 0,
        createdAt: now,
        startedAt: null,
        concludedAt: null,
        updatedAt: now,
      });
      await this.outbox.add(manager, { organizationId, queue: INVESTIGATIONS_QUEUE, name: RUN_INVESTIGATION_JOB, payload: { investigationId: id } });
      await this.audit.record(manager, organizationId, context, {
        action: 'investigation.open',
        targetKind: 'investigation',
        targetId: id,
        detail: { incidentId },
      });
    });
    return this.get(organizationId, id);
  }

  /**
   * Inserts a conversation turn's investigation, queued, in the caller's transaction, without its
   * job: `startTurn` gives it its context and queues it when the conversation's earlier turns
   * have ended. Its end writes `opening.endJob` to the outbox.
   */
  async openTurn(manager: EntityManager, organizationId: string, opening: TurnOpening): Promise<void> {
    const now = Timestamp.now();
    await this.investigations.withManager(manager).insert(organizationId, {
      id: opening.id,
      incidentId: opening.incidentId,
      status: 'queued',
      subject: opening.subject.slice(0, 1024),
      windowFrom: opening.windowFrom,
      windowUntil: opening.windowUntil,
      openedBy: opening.openedBy,
      reasoner: null,
      conversation: null,
      endJob: opening.endJob,
      createdAt: now,
      startedAt: null,
      concludedAt: null,
      updatedAt: now,
    });
  }

  /**
   * Starts a queued conversation turn in the caller's transaction: stores the conversation as its
   * reasoner will see it and writes its job. False when it is no longer queued (cancelled while
   * it waited) or was started already.
   */
  async startTurn(manager: EntityManager, organizationId: string, investigationId: string, conversation: ConversationContext): Promise<boolean> {
    if (!(await this.repository.startTurn(organizationId, investigationId, conversation, manager))) return false;
    await this.outbox.add(manager, { organizationId, queue: INVESTIGATIONS_QUEUE, name: RUN_INVESTIGATION_JOB, payload: { investigationId } });
    return true;
  }

  /** The named investigations (those of another Organization are simply not found). */
  async findMany(organizationId: string, ids: string[], manager?: EntityManager): Promise<Investigation[]> {
    if (ids.length === 0) return [];
    const rows = manager ? this.investigations.withManager(manager) : this.investigations;
    return rows.find(organizationId, { where: { id: In(ids) } });
  }

  async list(
    organizationId: string,
    filters: { status?: InvestigationStatus; incidentId?: string; incidentIds?: string[]; kind?: 'investigation' | 'turn' },
    page: PageRequest,
  ): Promise<Page<Investigation> & { total: number }> {
    const filtered = () =>
      this.investigations.query(organizationId, 'i').andWhere(
        new Brackets((qb) => {
          qb.where('TRUE');
          if (filters.status) qb.andWhere('i.status = :status', { status: filters.status });
          if (filters.incidentId) qb.andWhere('i.incident_id = :incidentId', { incidentId: filters.incidentId });
          if (filters.incidentIds) qb.andWhere('i.incident_id IN (:...incidentIds)', { incidentIds: filters.incidentIds });
          if (filters.kind) qb.andWhere(filters.kind === 'turn' ? 'i.conversation IS NOT NULL' : 'i.conversation IS NULL');
        }),
      );
    const [result, total] = await Promise.all([
      keysetPage(
        filtered(),
        this.cursors,
        {
          scope: organizationId,
          collection: `investigations?${filters.status ?? ''}&${filters.incidentId ?? ''}&${filters.incidentIds?.join(',') ?? ''}&${filters.kind ?? ''}`,
        },
        NEWEST_FIRST,
        page,
      ),
      filtered().getCount(),
    ]);
    return { ...result, total };
  }

  async get(organizationId: string, id: string): Promise<Investigation> {
    const investigation = await this.investigations.findById(organizationId, id);
    if (!investigation) throw new NotFoundError('Investigation');
    return investigation;
  }

  async runsOf(organizationId: string, investigationId: string): Promise<ToolRun[]> {
    return this.runs.find(organizationId, { where: { investigationId }, order: { ordinal: 'ASC' } });
  }

  async sourcesOf(organizationId: string, investigationId: string): Promise<InvestigationSource[]> {
    await this.get(organizationId, investigationId);
    return this.sources.find(organizationId, { where: { investigationId }, order: { rank: 'ASC' } });
  }

  /** Every activity envelope (progress, tool runs, hypothesis updates, the end), in sequence order. */
  async activityOf(organizationId: string, investigationId: string, page: PageRequest): Promise<Page<InvestigationActivity>> {
    await this.get(organizationId, investigationId);
    const query = this.activityRows.query(organizationId, 'a').andWhere('a.investigation_id = :investigationId', { investigationId });
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `investigations/${investigationId}/activity` }, BY_SEQUENCE, page);
  }

  /**
   * Stops the investigation: it is `cancelled` from now on, with its terminal event; the worker
   * sees it within half a second and aborts its in-flight tool or reasoner call.
   */
  async cancel(organizationId: string, id: string, context: AuditContext): Promise<Investigation> {
    await this.dataSource.transaction(async (manager) => {
      const status = await this.repository.lockStatus(organizationId, id, manager);
      if (!status) throw new NotFoundError('Investigation');
      if (TERMINAL_STATUSES.includes(status))
        throw new ConflictError(`The investigation already ended (${status}); only a queued or running one can be cancelled`);
      await this.repository.markCancelled(organizationId, id, manager);
      await this.toolRuns.failRunning(organizationId, id, 'Cancelled', manager);
      await this.activity.append(manager, organizationId, id, 'cancelled', { status: 'cancelled' });
      await this.audit.record(manager, organizationId, context, { action: 'investigation.cancel', targetKind: 'investigation', targetId: id });
    });
    return this.get(organizationId, id);
  }

  /** The series one run read, for plotting (404 for an unknown investigation or run). */
  async runSeries(organizationId: string, id: string, ordinal: number): Promise<RunSeriesView> {
    await this.get(organizationId, id);
    const run = await this.runs.findOne(organizationId, { investigationId: id, ordinal });
    if (!run) throw new NotFoundError('Tool run');
    return runSeriesView(id, run);
  }

  /** The log templates one run mined, for a table (404 for an unknown investigation or run). */
  async runTemplates(organizationId: string, id: string, ordinal: number): Promise<RunTemplatesView> {
    await this.get(organizationId, id);
    const run = await this.runs.findOne(organizationId, { investigationId: id, ordinal });
    if (!run) throw new NotFoundError('Tool run');
    return runTemplatesView(id, run);
  }

  /** The investigation with its runs: the single read of the API. */
  async detail(organizationId: string, id: string): Promise<InvestigationView> {
    const investigation = await this.get(organizationId, id);
    return investigationView(investigation, await this.runsOf(organizationId, id));
  }

  /** A page of investigations, newest first, with the total matching the filters. */
  async page(organizationId: string, filters: { status?: InvestigationStatus; incidentId?: string }, page: PageRequest): Promise<InvestigationPage> {
    const found = await this.list(organizationId, filters, page);
    return { next: found.next, total: found.total, items: found.items.map((i) => investigationView(i)) };
  }

  /** The integrations selected for it, ranked, with the runs made against them. */
  async sourcesWithRuns(organizationId: string, id: string): Promise<InvestigationSourcesView> {
    const sources = await this.sourcesOf(organizationId, id);
    return sourcesView(id, sources, await this.runsOf(organizationId, id));
  }

  async activityPage(organizationId: string, id: string, page: PageRequest): Promise<ActivityPage> {
    const found = await this.activityOf(organizationId, id, page);
    return { items: found.items.map(envelopeOf), next: found.next };
  }

  /** The latest running snapshot while investigating, the final hypotheses once it ended. */
  async hypotheses(organizationId: string, id: string): Promise<HypothesesView> {
    return hypothesesView(await this.get(organizationId, id));
  }

  /** The conclusion as Markdown, with the runs it cites. */
  async report(organizationId: string, id: string): Promise<string> {
    const investigation = await this.get(organizationId, id);
    return investigationReport(investigation, await this.runsOf(organizationId, id));
  }

  /**
   * Every investigation of the given incidents, oldest first, with its run ordinals: the facts
   * documents written about an incident (postmortems) cite.
   */
  async recordsOfIncidents(organizationId: string, incidentIds: string[]): Promise<InvestigationRecord[]> {
    if (incidentIds.length === 0) return [];
    const found = await this.investigations.find(organizationId, { where: { incidentId: In(incidentIds) }, order: { createdAt: 'ASC', id: 'ASC' } });
    if (found.length === 0) return [];
    const runs = await this.runs.find(organizationId, { where: { investigationId: In(found.map((i) => i.id)) }, order: { ordinal: 'ASC' } });
    return found.map((i) => {
      const own = runs.filter((r) => r.investigationId === i.id);
      return investigationRecord(
        i,
        own.map((r) => r.ordinal),
        citedChanges(i, own),
      );
    });
  }
}

/** The reported changes of the changes.near_onset runs the investigation's findings cite, oldest first, each once. */
function citedChanges(investigation: Investigation, runs: ToolRun[]): CitedChange[] {
  const cited = new Set(investigation.findings.flatMap((f) => f.runRefs));
  const changes = new Map<string, CitedChange>();
  for (const run of runs.filter((r) => r.tool === CHANGES_TOOL && r.outcome === 'succeeded' && cited.has(r.ordinal)))
    for (const c of (run.output as { changes?: RecordedChange[] } | null)?.changes ?? [])
      if (!changes.has(c.id))
        changes.set(c.id, {
          id: c.id,
          occurredAt: c.occurredAt,
          kind: c.kind,
          service: c.service,
          summary: c.summary,
          author: c.author,
          source: c.source,
          runOrdinal: run.ordinal,
        });
  return [...changes.values()].sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : 0));
}
