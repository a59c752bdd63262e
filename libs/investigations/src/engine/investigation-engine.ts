import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IncidentsService } from '@svc/incidents';
import { IntegrationsService, ReadableDataSource } from '@svc/integrations';
import { PolicyService } from '@svc/organizations';
import { newId, Timestamp } from '@svc/platform';
import { ActivityService } from '../activity.service';
import type { Conclusion, StoppedBy } from '../conclusion.types';
import { Investigation } from '../investigation.entity';
import { AlertBrief, BudgetExhausted, InvestigationCancelled, Reasoner, ReasonerFailure, SourceBrief } from '../reasoning/reasoner';
import { ToolRun } from '../tool-run.entity';
import { ToolCatalog } from '../tools/tool-catalog';
import { failRunningRuns } from '../tool-runs';
import { claimState, heldBy } from './claim';
import { checkConclusion, InvalidConclusion } from './conclusion-check';
import { NoLongerOurs, RecordingSession } from './recording-session';
import { ReasonerFactory } from './reasoner-factory';

/** How often a running investigation checks whether it was cancelled (decisions §6: stop within 2 s). */
const CANCEL_POLL_MS = 500;
/** Time a reasoner gets to write its best conclusion after a budget stopped it. */
const CONCLUDE_EARLY_SECONDS = 30;
const MAX_ALERTS = 200;

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
    private readonly integrations: IntegrationsService,
    private readonly policies: PolicyService,
    private readonly catalog: ToolCatalog,
    private readonly reasoners: ReasonerFactory,
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
    const poll = setInterval(() => void this.stillOurs(organizationId, investigationId, claim).then((ours) => { if (!ours) session?.cancel(); }, () => undefined), CANCEL_POLL_MS);
    try {
      session = await this.openSession(investigation, claim);
      await this.work(session, reasoner, organizationId, investigationId, claim);
    } catch (error) {
      if (error instanceof NoLongerOurs || error instanceof InvestigationCancelled || session?.cancelled) return;
      if (!options.finalAttempt) throw error;
      this.logger.error({ err: error, investigationId }, 'Investigation failed unexpectedly');
      await this.fail(organizationId, investigationId, claim, `Internal error while investigating: ${(error as Error).message ?? String(error)}`, session).catch(() => undefined);
    } finally {
      clearInterval(poll);
      session?.dispose();
    }
  }

  private async work(session: RecordingSession, reasoner: Reasoner, organizationId: string, investigationId: string, claim: string): Promise<void> {
    let conclusion: Conclusion;
    let stoppedBy: StoppedBy | null = null;
    try {
      conclusion = await reasoner.investigate(session);
    } catch (error) {
      if (session.cancelled) throw new InvestigationCancelled();
      const budget = error instanceof BudgetExhausted ? error : session.stopReason === 'wall_clock' ? new BudgetExhausted('wall_clock', 'Stopped at the wall-clock budget') : null;
      if (!budget) {
        if (error instanceof ReasonerFailure) return this.fail(organizationId, investigationId, claim, error.message, session);
        throw error;
      }
      stoppedBy = budget.stoppedBy;
      await session.progress(budget.detail);
      session.enterGracePeriod(CONCLUDE_EARLY_SECONDS);
      try {
        conclusion = await reasoner.concludeEarly(session, stoppedBy);
      } catch (early) {
        if (session.cancelled || early instanceof InvestigationCancelled) throw new InvestigationCancelled();
        return this.fail(organizationId, investigationId, claim, `${budget.detail}, and no conclusion could be drawn: ${(early as Error).message}`, session);
      }
    }
    let checked: Conclusion;
    try {
      checked = checkConclusion(conclusion, investigationId, session.runs);
    } catch (error) {
      if (error instanceof InvalidConclusion) return this.fail(organizationId, investigationId, claim, `The reasoner's conclusion was refused: ${error.message}`, session);
      throw error;
    }
    await this.conclude(organizationId, investigationId, claim, checked, stoppedBy, session);
  }

  /** Takes the investigation for this attempt, or null when it already ended (nothing to do). */
  private async claim(organizationId: string, investigationId: string, claim: string, reasoner: string): Promise<Investigation | null> {
    return this.dataSource.transaction(async (manager) => {
      const row = await manager.getRepository(Investigation).createQueryBuilder('i')
        .where('i.organization_id = :organizationId AND i.id = :investigationId', { organizationId, investigationId }).setLock('pessimistic_write').getOne();
      if (!row || (row.status !== 'queued' && row.status !== 'investigating')) return null;
      const resumed = row.status === 'investigating';
      await manager.query(
        `UPDATE investigations SET status = 'investigating', claim = $3, attempts = attempts + 1, reasoner = $4,
                started_at = COALESCE(started_at, clock_timestamp()), updated_at = clock_timestamp()
          WHERE organization_id = $1 AND id = $2`,
        [organizationId, investigationId, claim, reasoner],
      );
      if (resumed) {
        await failRunningRuns(manager, organizationId, investigationId, 'Interrupted: the worker stopped during this run');
        await this.activity.append(manager, organizationId, investigationId, 'progress', { message: `Resumed after the worker stopped (attempt ${row.attempts + 1})` });
      } else {
        await this.activity.append(manager, organizationId, investigationId, 'started', { status: 'investigating', reasoner });
      }
      return manager.getRepository(Investigation).findOneByOrFail({ organizationId, id: investigationId });
    });
  }

  private async openSession(investigation: Investigation, claim: string): Promise<RecordingSession> {
    const organizationId = investigation.organizationId;
    const incident = await this.incidents.get(organizationId, investigation.incidentId);
    const events = await this.incidents.alertEvents(organizationId, incident.id, { limit: MAX_ALERTS });
    // The latest phase of each alert, in the order the alerts started.
    const latest = new Map<string, AlertBrief>();
    for (const e of events.items) {
      latest.set(e.fingerprint, { fingerprint: e.fingerprint, status: e.status, labels: e.labels, annotations: e.annotations, startsAt: e.startsAt, endsAt: e.endsAt, generatorUrl: e.generatorUrl });
    }
    const alerts = [...latest.values()].sort((a, b) => (a.startsAt.isAfter(b.startsAt) ? 1 : -1));
    const sources = await this.selectSources(investigation, incident.integrationId);
    const budgets = (await this.policies.get(organizationId)).investigationBudgets;
    const earlierRuns = await this.dataSource.getRepository(ToolRun).find({ where: { organizationId, investigationId: investigation.id }, order: { ordinal: 'ASC' } });
    return new RecordingSession({
      organizationId, investigationId: investigation.id, claim, subject: investigation.subject,
      window: { from: investigation.windowFrom, until: investigation.windowUntil },
      incident: { id: incident.id, title: incident.title, status: incident.status, labels: incident.labels, openedAt: incident.openedAt, resolvedAt: incident.resolvedAt },
      alerts, sources, budgets, startedAt: investigation.startedAt ?? Timestamp.now(), earlierRuns,
    }, this.dataSource, this.activity, this.catalog);
  }

  /**
   * The Organization's readable integrations, ranked: the Alertmanager the incident came from,
   * then Prometheus servers (verified ones first), then other Alertmanagers. Stored once; a
   * resumed attempt keeps the first selection.
   */
  private async selectSources(investigation: Investigation, incidentIntegrationId: string): Promise<Array<SourceBrief & { connection: ReadableDataSource & { type: 'prometheus' | 'alertmanager' } }>> {
    const readable = await this.integrations.readableDataSources(investigation.organizationId);
    const score = (s: ReadableDataSource): number => (s.integrationId === incidentIntegrationId ? 0 : s.type === 'prometheus' ? (s.verifiedAt ? 1 : 2) : 3);
    const ranked = [...readable].sort((a, b) => score(a) - score(b)).map((s, i) => ({
      integrationId: s.integrationId, type: s.type, name: s.name, rank: i + 1, connection: s,
      reason: s.integrationId === incidentIntegrationId
        ? `${s.name}: the Alertmanager the incident's alerts came from (its alerts and silences)`
        : s.type === 'prometheus'
          ? `${s.name}: Prometheus metrics, alerting rules and targets${s.verifiedAt ? `, verified ${s.verifiedAt.toISOString()}` : ''}`
          : `${s.name}: Alertmanager alerts and silences of the Organization`,
    }));
    await this.dataSource.transaction(async (manager) => {
      for (const s of ranked) {
        await manager.query(
          `INSERT INTO investigation_sources (organization_id, id, investigation_id, integration_id, rank, reason) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (organization_id, investigation_id, integration_id) DO NOTHING`,
          [investigation.organizationId, newId(), investigation.id, s.integrationId, s.rank, s.reason],
        );
      }
      await this.activity.append(manager, investigation.organizationId, investigation.id, 'progress', {
        message: ranked.length ? `Selected ${ranked.length} source(s): ${ranked.map((s) => s.name).join(', ')}` : 'No readable integration: only the incident\'s own alerts can be read',
      });
    });
    return ranked;
  }

  private async stillOurs(organizationId: string, investigationId: string, claim: string): Promise<boolean> {
    return heldBy(await claimState(this.dataSource.manager, organizationId, investigationId, { lock: false }), claim);
  }


  private async conclude(organizationId: string, investigationId: string, claim: string, c: Conclusion, stoppedBy: StoppedBy | null, session: RecordingSession): Promise<void> {
    const status = stoppedBy ? 'partial' : 'concluded';
    await this.finish(organizationId, investigationId, claim, async (manager) => {
      await manager.query(
        `UPDATE investigations SET status = $3, conclusion_status = $4, summary = $5, impact = $6::jsonb, findings = $7::jsonb, hypotheses = $8::jsonb,
                actions = $9::jsonb, limitations = $10::jsonb, stopped_by = $11, input_tokens = $12, output_tokens = $13, concluded_at = clock_timestamp(), updated_at = clock_timestamp()
          WHERE organization_id = $1 AND id = $2`,
        [organizationId, investigationId, status, c.conclusionStatus, c.summary, JSON.stringify(c.impact), JSON.stringify(c.findings), JSON.stringify(c.hypotheses),
          JSON.stringify(c.actions), JSON.stringify(c.limitations), stoppedBy, session.usage.inputTokens, session.usage.outputTokens],
      );
      await this.activity.append(manager, organizationId, investigationId, 'concluded', { status, conclusionStatus: c.conclusionStatus, stoppedBy, summary: c.summary.slice(0, 1024) });
    });
  }

  private async fail(organizationId: string, investigationId: string, claim: string, error: string, session?: RecordingSession): Promise<void> {
    await this.finish(organizationId, investigationId, claim, async (manager) => {
      await manager.query(
        `UPDATE investigations SET status = 'failed', error = $3, input_tokens = $4, output_tokens = $5, concluded_at = clock_timestamp(), updated_at = clock_timestamp()
          WHERE organization_id = $1 AND id = $2`,
        [organizationId, investigationId, error.slice(0, 4096), session?.usage.inputTokens ?? 0, session?.usage.outputTokens ?? 0],
      );
      await this.activity.append(manager, organizationId, investigationId, 'failed', { status: 'failed', error: error.slice(0, 1024) });
    });
  }

  /** The last write: only while the investigation is still this attempt's. */
  private async finish(organizationId: string, investigationId: string, claim: string, work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!heldBy(await claimState(manager, organizationId, investigationId, { lock: true }), claim)) return;
      await failRunningRuns(manager, organizationId, investigationId, 'Stopped when the investigation ended');
      await work(manager);
    });
  }
}
