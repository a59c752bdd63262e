import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { CHANGES_BEFORE_INCIDENT_SECONDS, ChangesService, ServicePair } from '@svc/changes';
import { IncidentsService } from '@svc/incidents';
import type { DatastoreKind } from '@svc/datastores';
import { IntegrationsService, ReadableDataSource } from '@svc/integrations';
import { PolicyService } from '@svc/organizations';
import { InjectScopedRepository, newId, ScopedRepository, Timestamp } from '@svc/platform';
import { ActivityService } from '../activity.service';
import type { Conclusion, StoppedBy } from '../conclusion.types';
import type { ConversationContext } from '../turn.types';
import { Investigation } from '../investigation.entity';
import { namesDatastore } from '../reasoning/explainers/datastores-serving';
import { alertServices } from '../reasoning/recorded-changes';
import { AlertBrief, BudgetExhausted, InvestigationCancelled, ObservedRollout, Reasoner, ReasonerFailure, SourceBrief } from '../reasoning/reasoner';
import { ToolRun } from '../tool-run.entity';
import { PRODUCT_NAMES } from '../tools/http-json';
import { KubernetesSnapshotsRepository } from '../snapshots/kubernetes-snapshots.repository';
import { ToolCatalog } from '../tools/tool-catalog';
import { InvestigationsRepository } from '../investigations.repository';
import { ToolRunsRepository } from '../tool-runs.repository';
import { heldBy } from './claim';
import { checkConclusion, InvalidConclusion } from './conclusion-check';
import { NoLongerOurs, RecordingSession } from './recording-session';
import { ReasonerFactory } from './reasoner-factory';
import type { ChangeReader } from './changes-near-onset.tool';
import { observedChange } from './observed-rollout';
import type { WindowIncident } from './window-incidents.tool';

/** How often a running investigation checks whether it was cancelled (decisions §6: stop within 2 s). */
const CANCEL_POLL_MS = 500;
/** Time a reasoner gets to write its best conclusion after a budget stopped it. */
const CONCLUDE_EARLY_SECONDS = 30;
/** What an investigation reads of each kind of datastore, broker or log store, as a source's reason says it. */
const DATASTORE_READ_TEXT: Record<DatastoreKind | 'rabbitmq' | 'loki' | 'kubernetes', string> = {
  rabbitmq: 'queues, consumers, connections and alarms',
  kubernetes: "events, pod and container states, containers' current and previous logs, rollout history and nodes",
  loki: 'logs: labels, lines, counts over time and log templates before and after the onset',
  postgresql: 'sessions, locks, connections and statements',
  mysql: 'connections, lock waits and statements',
  redis: 'memory and evictions, clients, slow log and latency',
};

const MAX_ALERTS = 200;

/** Incidents (and alerts of each) a question without an incident reads from its window. */
const MAX_WINDOW_INCIDENTS = 50;
const MAX_WINDOW_ALERTS = 50;

/** Where a datastore or broker read directly is reached (host, host:port); none for one read through a relay. */
function addressesOf(s: ReadableDataSource): string[] {
  if (s.endpoint) return [s.endpoint.host, `${s.endpoint.host}:${s.endpoint.port}`];
  if (s.type !== 'rabbitmq' || !s.baseUrl) return [];
  const url = new URL(s.baseUrl);
  return url.port ? [url.hostname, url.host] : [url.hostname];
}

/**
 * A conversation turn's limitations cite the messages that scoped them: the turn's own message
 * unless the reasoner named others (only messages of the conversation as the turn saw it are kept), plus a
 * limitation for the earlier messages and turns left out of the context budget.
 */
export function scopedByMessages(c: Conclusion, conversation: ConversationContext | null): Conclusion {
  if (!conversation) return c;
  const sequences = new Set([conversation.messageSequence, ...conversation.messages.map((m) => m.sequence), ...conversation.droppedMessageSequences]);
  const known = (n: number) => sequences.has(n);
  const limitations = c.limitations.map((l) => {
    const cited = (l.messageSequences ?? []).filter(known);
    return { ...l, messageSequences: cited.length ? [...new Set(cited)].sort((a, b) => a - b) : [conversation.messageSequence] };
  });
  if (conversation.droppedMessageSequences.length || conversation.droppedTurns.length) {
    const dropped = conversation.droppedMessageSequences;
    limitations.push({
      type: 'scope',
      statement: `The conversation was longer than the context budget: ${dropped.length} earlier message(s)${
        conversation.droppedTurns.length ? ` and the conclusions of ${conversation.droppedTurns.length} earlier turn(s)` : ''
      } (the oldest) were left out of this turn's context`,
      runRefs: [],
      messageSequences: dropped.length ? dropped : [conversation.messageSequence],
    });
  }
  return { ...c, limitations };
}

/** What the reasoner concluded, and the budget that stopped it early, if one did. */
interface Reasoned {
  conclusion: Conclusion;
  stoppedBy: StoppedBy | null;
}

/**
 * Works one investigation: claims it, selects and ranks its sources, runs the reasoner in a
 * recording session, and stores the checked conclusion (or the failure). Safe to run again for
 * the same investigation (Bull delivers at least once; a worker may die mid-way): an ended
 * investigation is left alone, and a running one is taken over, reusing its completed runs.
 */
@Injectable()
export class InvestigationEngine {
  private readonly logger = new Logger(InvestigationEngine.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly activity: ActivityService,
    private readonly incidents: IncidentsService,
    private readonly changes: ChangesService,
    private readonly integrations: IntegrationsService,
    private readonly policies: PolicyService,
    private readonly catalog: ToolCatalog,
    private readonly reasoners: ReasonerFactory,
    private readonly investigations: InvestigationsRepository,
    private readonly toolRuns: ToolRunsRepository,
    private readonly snapshots: KubernetesSnapshotsRepository,
    @InjectScopedRepository(ToolRun) private readonly runs: ScopedRepository<ToolRun>,
    @InjectScopedRepository(Investigation) private readonly investigationRows: ScopedRepository<Investigation>,
  ) {}

  /**
   * `finalAttempt`: an unexpected failure ends the investigation as failed instead of being
   * thrown for the queue to retry.
   */
  async run(organizationId: string, investigationId: string, options: { finalAttempt: boolean }): Promise<void> {
    const reasoner = this.reasoners.create();
    const claim = newId();
    const investigation = await this.claim(organizationId, investigationId, claim, reasoner.name);
    if (!investigation) return;
    let session: RecordingSession | undefined;
    const poll = setInterval(
      () =>
        void this.stillOurs(organizationId, investigationId, claim).then(
          (ours) => {
            if (!ours) session?.cancel();
          },
          () => undefined,
        ),
      CANCEL_POLL_MS,
    );
    try {
      session = await this.openSession(investigation, claim);
      await this.work(session, reasoner, organizationId, investigationId, claim);
    } catch (error) {
      if (error instanceof NoLongerOurs || error instanceof InvestigationCancelled || session?.cancelled) return;
      if (!options.finalAttempt) throw error;
      this.logger.error({ err: error, investigationId }, 'Investigation failed unexpectedly');
      await this.fail(organizationId, investigationId, claim, `Internal error while investigating: ${(error as Error).message ?? String(error)}`).catch(
        () => undefined,
      );
    } finally {
      clearInterval(poll);
      session?.dispose();
    }
  }

  private async work(session: RecordingSession, reasoner: Reasoner, organizationId: string, investigationId: string, claim: string): Promise<void> {
    const reasoned = await this.reason(session, reasoner, organizationId, investigationId, claim);
    if (!reasoned) return;
    let checked: Conclusion;
    try {
      checked = checkConclusion(reasoned.conclusion, investigationId, session.runs);
    } catch (error) {
      if (error instanceof InvalidConclusion)
        return this.fail(organizationId, investigationId, claim, `The reasoner's conclusion was refused: ${error.message}`);
      throw error;
    }
    await this.conclude(organizationId, investigationId, claim, scopedByMessages(checked, session.conversation), reasoned.stoppedBy);
  }

  /**
   * The reasoner's conclusion, or, after a budget stopped it, the best one it can draw in a grace
   * period. Null when the reasoner failed: the investigation was then ended as failed.
   */
  private async reason(
    session: RecordingSession,
    reasoner: Reasoner,
    organizationId: string,
    investigationId: string,
    claim: string,
  ): Promise<Reasoned | null> {
    try {
      return { conclusion: await reasoner.investigate(session), stoppedBy: null };
    } catch (error) {
      if (session.cancelled) throw new InvestigationCancelled();
      const budget =
        error instanceof BudgetExhausted
          ? error
          : session.stopReason === 'wall_clock'
            ? new BudgetExhausted('wall_clock', 'Stopped at the wall-clock budget')
            : null;
      if (!budget) {
        if (error instanceof ReasonerFailure) {
          await this.fail(organizationId, investigationId, claim, error.message);
          return null;
        }
        throw error;
      }
      return this.concludeEarly(session, reasoner, budget, organizationId, investigationId, claim);
    }
  }

  private async concludeEarly(
    session: RecordingSession,
    reasoner: Reasoner,
    budget: BudgetExhausted,
    organizationId: string,
    investigationId: string,
    claim: string,
  ): Promise<Reasoned | null> {
    const stoppedBy = budget.stoppedBy;
    await session.progress(budget.detail);
    session.enterGracePeriod(CONCLUDE_EARLY_SECONDS);
    try {
      return { conclusion: await reasoner.concludeEarly(session, stoppedBy), stoppedBy };
    } catch (early) {
      if (session.cancelled || early instanceof InvestigationCancelled) throw new InvestigationCancelled();
      await this.fail(organizationId, investigationId, claim, `${budget.detail}, and no conclusion could be drawn: ${(early as Error).message}`);
      return null;
    }
  }

  /** Takes the investigation for this attempt, or null when it already ended (nothing to do). */
  private async claim(organizationId: string, investigationId: string, claim: string, reasoner: string): Promise<Investigation | null> {
    return this.dataSource.transaction(async (manager) => {
      const rows = this.investigationRows.withManager(manager);
      const row = await rows.query(organizationId, 'i').andWhere('i.id = :investigationId', { investigationId }).setLock('pessimistic_write').getOne();
      if (!row || (row.status !== 'queued' && row.status !== 'investigating')) return null;
      const resumed = row.status === 'investigating';
      await this.investigations.markClaimed(organizationId, investigationId, claim, reasoner, manager);
      if (resumed) {
        await this.toolRuns.failRunning(organizationId, investigationId, 'Interrupted: the worker stopped during this run', manager);
        await this.activity.append(manager, organizationId, investigationId, 'progress', {
          message: `Resumed after the worker stopped (attempt ${row.attempts + 1})`,
        });
      } else {
        await this.activity.append(manager, organizationId, investigationId, 'started', { status: 'investigating', reasoner });
      }
      return (await rows.findById(organizationId, investigationId))!;
    });
  }

  private async openSession(investigation: Investigation, claim: string): Promise<RecordingSession> {
    const organizationId = investigation.organizationId;
    const incident = investigation.incidentId ? await this.incidents.get(organizationId, investigation.incidentId) : null;
    // The latest phase of each alert, in the order the alerts started.
    const latest = new Map<string, AlertBrief>();
    if (incident) {
      const events = await this.incidents.alertEvents(organizationId, incident.id, { limit: MAX_ALERTS });
      for (const e of events.items) {
        latest.set(e.fingerprint, {
          fingerprint: e.fingerprint,
          status: e.status,
          labels: e.labels,
          annotations: e.annotations,
          startsAt: e.startsAt,
          endsAt: e.endsAt,
          generatorUrl: e.generatorUrl,
        });
      }
    }
    const alerts = [...latest.values()].sort((a, b) => (a.startsAt.isAfter(b.startsAt) ? 1 : -1));
    const incidentServices = new Set(
      [...alertServices(alerts), ...alertServices(incident ? [{ labels: incident.labels }] : [])].map((name) => name.toLowerCase()),
    );
    // Every label value the incident's alerts carry: one may name a datastore's address or name.
    const labelValues = [...new Set([...alerts, ...(incident ? [incident] : [])].flatMap((a) => Object.values(a.labels)))];
    const sources = await this.selectSources(investigation, incident?.integrationId ?? null, incidentServices, labelValues);
    const budgets = (await this.policies.get(organizationId)).investigationBudgets;
    const earlierRuns = await this.runs.find(organizationId, { where: { investigationId: investigation.id }, order: { ordinal: 'ASC' } });
    // A conversation turn may reuse the reads of the earlier turns it sees, the latest first (see RecordingSession.reusable).
    const turnOf = new Map((investigation.conversation?.turns ?? []).map((t) => [t.investigationId, t.turn]));
    const conversationRuns = turnOf.size
      ? (
          await this.runs.find(organizationId, {
            where: { investigationId: In([...turnOf.keys()]), outcome: 'succeeded' },
            order: { startedAt: 'DESC', ordinal: 'DESC' },
          })
        ).map((run) => ({ turn: turnOf.get(run.investigationId)!, run }))
      : [];
    return new RecordingSession(
      {
        organizationId,
        investigationId: investigation.id,
        claim,
        subject: investigation.subject,
        window: { from: investigation.windowFrom, until: investigation.windowUntil },
        incident: incident
          ? {
              id: incident.id,
              title: incident.title,
              status: incident.status,
              labels: incident.labels,
              openedAt: incident.openedAt,
              resolvedAt: incident.resolvedAt,
            }
          : null,
        conversation: investigation.conversation,
        alerts,
        windowIncidents: incident ? [] : await this.windowIncidents(organizationId, investigation),
        kubernetesSnapshot: incident ? await this.snapshots.find(organizationId, incident.id) : null,
        readChanges: await this.changeReader(organizationId, investigation),
        recordRollout: (rollout) => this.recordRollout(organizationId, investigation.id, rollout),
        recordCalls: (integrationId, pairs) => this.recordCalls(organizationId, investigation.id, integrationId, pairs),
        sources,
        budgets,
        startedAt: investigation.startedAt ?? Timestamp.now(),
        earlierRuns,
        conversationRuns,
      },
      this.dataSource,
      this.activity,
      this.catalog,
      { investigations: this.investigations, toolRuns: this.toolRuns },
    );
  }

  /**
   * How the session reads reported changes, offered when any change was recorded in the
   * Organization around the investigation's window (from an hour before it): the services the
   * alerts name are not all the reasoner reads changes of (what they call, what shares their nodes,
   * as the metrics show it during the investigation); without any, changes.near_onset could only
   * answer that there is none, at the price of a tool run.
   */
  private async changeReader(organizationId: string, investigation: Investigation): Promise<ChangeReader | null> {
    const read: ChangeReader = {
      near: (window, services, limit) => this.changes.near(organizationId, window, services, limit),
      dependenciesOf: (services) => this.changes.dependenciesOf(organizationId, services),
    };
    const around = { from: investigation.windowFrom.plusSeconds(-CHANGES_BEFORE_INCIDENT_SECONDS), until: investigation.windowUntil };
    return (await read.near(around, [], 1)).length > 0 ? read : null;
  }

  /** Records a rollout seen in the metrics as a change, and answers its id; a failure is logged (null), and the investigation goes on. */
  private async recordRollout(organizationId: string, investigationId: string, rollout: ObservedRollout & { integrationId: string }): Promise<string | null> {
    try {
      const recorded = await this.changes.recordObserved(
        organizationId,
        { integrationId: rollout.integrationId, investigationId, source: rollout.seenIn },
        observedChange(rollout, investigationId),
      );
      return recorded.id;
    } catch (error) {
      this.logger.warn({ err: error, investigationId }, 'A rollout seen in the metrics could not be recorded as a change');
      return null;
    }
  }

  /** Records calls between services seen in the metrics; a failure is logged, and the investigation goes on. */
  private async recordCalls(organizationId: string, investigationId: string, integrationId: string, pairs: ReadonlyArray<ServicePair>): Promise<void> {
    try {
      await this.changes.recordCalls(organizationId, { integrationId, investigationId }, pairs);
    } catch (error) {
      this.logger.warn({ err: error, investigationId }, 'Calls between services seen in the metrics could not be recorded');
    }
  }

  /** For a question without an incident: the incidents that opened in its window, each with its alerts' latest phases. */
  private async windowIncidents(organizationId: string, investigation: Investigation): Promise<WindowIncident[]> {
    const page = await this.incidents.list(
      organizationId,
      { from: investigation.windowFrom.toISOString(), until: investigation.windowUntil.toISOString() },
      { limit: MAX_WINDOW_INCIDENTS },
    );
    const out: WindowIncident[] = [];
    for (const i of page.items) {
      const events = await this.incidents.alertEvents(organizationId, i.id, { limit: MAX_WINDOW_ALERTS });
      const latest = new Map<string, AlertBrief>();
      for (const e of events.items)
        latest.set(e.fingerprint, {
          fingerprint: e.fingerprint,
          status: e.status,
          labels: e.labels,
          annotations: e.annotations,
          startsAt: e.startsAt,
          endsAt: e.endsAt,
          generatorUrl: e.generatorUrl,
        });
      out.push({
        id: i.id,
        title: i.title,
        status: i.status,
        labels: i.labels,
        openedAt: i.openedAt.toISOString(),
        resolvedAt: i.resolvedAt?.toISOString() ?? null,
        alerts: [...latest.values()],
      });
    }
    return out;
  }

  /**
   * The Organization's readable integrations, ranked: the Alertmanager the incident came from,
   * then Prometheus servers (verified ones first), then other Alertmanagers, then datastores
   * (those serving the incident's service first). Stored once; a resumed attempt keeps the first
   * selection.
   */
  private async selectSources(
    investigation: Investigation,
    incidentIntegrationId: string | null,
    incidentServices: ReadonlySet<string>,
    labelValues: readonly string[],
  ): Promise<Array<SourceBrief & { connection: ReadableDataSource }>> {
    const readable = await this.integrations.readableDataSources(investigation.organizationId);
    const servesIncident = (s: ReadableDataSource) =>
      s.services.some((name) => incidentServices.has(name.toLowerCase())) || namesDatastore({ name: s.name, addresses: addressesOf(s) }, labelValues);
    const score = (s: ReadableDataSource): number =>
      s.integrationId === incidentIntegrationId
        ? 0
        : s.type === 'prometheus'
          ? s.verifiedAt
            ? 1
            : 2
          : s.type === 'alertmanager'
            ? 3
            : servesIncident(s)
              ? 4
              : 5;
    const ranked = [...readable]
      .sort((a, b) => score(a) - score(b))
      .map((s, i) => ({
        integrationId: s.integrationId,
        type: s.type,
        name: s.name,
        rank: i + 1,
        connection: s,
        ...(s.services.length ? { services: s.services } : {}),
        ...(addressesOf(s).length ? { addresses: addressesOf(s) } : {}),
        reason:
          s.integrationId === incidentIntegrationId
            ? `${s.name}: the Alertmanager the incident's alerts came from (its alerts and silences)`
            : s.type === 'prometheus'
              ? `${s.name}: Prometheus metrics, alerting rules and targets${s.verifiedAt ? `, verified ${s.verifiedAt.toISOString()}` : ''}`
              : s.type === 'alertmanager'
                ? `${s.name}: Alertmanager alerts and silences of the Organization`
                : `${s.name}: ${PRODUCT_NAMES[s.type]} ${DATASTORE_READ_TEXT[s.type as DatastoreKind | 'rabbitmq' | 'loki' | 'kubernetes']}${s.services.length ? ` (serves ${s.services.join(', ')})` : ''}`,
      }));
    await this.dataSource.transaction(async (manager) => {
      for (const s of ranked) {
        await this.investigations.addSource(
          investigation.organizationId,
          { id: newId(), investigationId: investigation.id, integrationId: s.integrationId, rank: s.rank, reason: s.reason },
          manager,
        );
      }
      await this.activity.append(manager, investigation.organizationId, investigation.id, 'progress', {
        message: ranked.length
          ? `Selected ${ranked.length} source(s): ${ranked.map((s) => s.name).join(', ')}`
          : investigation.incidentId
            ? "No readable integration: only the incident's own alerts can be read"
            : "No readable integration: only the service's own data can be read",
      });
    });
    return ranked;
  }

  private async stillOurs(organizationId: string, investigationId: string, claim: string): Promise<boolean> {
    return heldBy(await this.investigations.claimState(organizationId, investigationId, { lock: false }), claim);
  }

  private async conclude(organizationId: string, investigationId: string, claim: string, c: Conclusion, stoppedBy: StoppedBy | null): Promise<void> {
    const status = c.question ? 'needs_input' : stoppedBy || c.incomplete ? 'partial' : 'concluded';
    await this.finish(organizationId, investigationId, claim, async (manager) => {
      await this.investigations.storeConclusion(organizationId, investigationId, { status, conclusion: c, stoppedBy }, manager);
      await this.activity.append(manager, organizationId, investigationId, 'concluded', {
        status,
        conclusionStatus: c.conclusionStatus,
        stoppedBy,
        summary: c.summary.slice(0, 1024),
      });
    });
  }

  private async fail(organizationId: string, investigationId: string, claim: string, error: string): Promise<void> {
    await this.finish(organizationId, investigationId, claim, async (manager) => {
      await this.investigations.storeFailure(organizationId, investigationId, error.slice(0, 4096), manager);
      await this.activity.append(manager, organizationId, investigationId, 'failed', { status: 'failed', error: error.slice(0, 1024) });
    });
  }

  /** The last write: only while the investigation is still this attempt's. */
  private async finish(organizationId: string, investigationId: string, claim: string, work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!heldBy(await this.investigations.claimState(organizationId, investigationId, { lock: true }, manager), claim)) return;
      await this.toolRuns.failRunning(organizationId, investigationId, 'Stopped when the investigation ended', manager);
      await work(manager);
    });
  }
}
