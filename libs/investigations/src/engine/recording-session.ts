import { DataSource, EntityManager } from 'typeorm';
import type { ServicePair } from '@svc/changes';
import { newId, Timestamp } from '@svc/platform';
import { ActivityService } from '../activity.service';
import type { HypothesisItem } from '../conclusion.types';
import {
  AlertBrief,
  BudgetExhausted,
  Budgets,
  IncidentBrief,
  InvestigationCancelled,
  InvestigationSession,
  ObservedRollout,
  RecordedRun,
  SessionTool,
  SourceBrief,
  ToolCall,
} from '../reasoning/reasoner';
import { ToolRun } from '../tool-run.entity';
import { ToolCatalog } from '../tools/tool-catalog';
import type { DataSourceConnection, ToolResult, ToolWindow } from '../tools/tool.types';
import type { ConversationContext } from '../turn.types';
import type { InvestigationsRepository } from '../investigations.repository';
import type { ToolRunsRepository } from '../tool-runs.repository';
import { heldBy } from './claim';
import { ChangeReader, CHANGES_NEAR_ONSET_TOOL, changesNearOnsetRefusal, runChangesNearOnsetTool } from './changes-near-onset.tool';
import type { RolloutRecorder } from './observed-rollout';
import { INCIDENT_ALERTS_TOOL, runIncidentAlertsTool } from './incident-alerts.tool';
import { KUBERNETES_SNAPSHOT_TOOL, runKubernetesSnapshotTool } from './kubernetes-snapshot.tool';
import { runWindowIncidentsTool, WINDOW_INCIDENTS_TOOL, WindowIncident } from './window-incidents.tool';
import type { SnapshotRecord } from '../snapshots/kubernetes-snapshots.repository';

/** Thrown when the investigation is no longer this worker's to write: cancelled, or taken over after a restart. */
export class NoLongerOurs extends Error {}

export interface SessionSetup {
  organizationId: string;
  investigationId: string;
  /** This worker's claim on the investigation; every write checks it. */
  claim: string;
  subject: string;
  window: ToolWindow;
  incident: IncidentBrief | null;
  conversation: ConversationContext | null;
  alerts: AlertBrief[];
  /** Without an incident: the Organization's incidents that opened in the window. */
  windowIncidents: WindowIncident[];
  /** What the Kubernetes API showed of the incident's workloads when it opened, once taken. */
  kubernetesSnapshot?: SnapshotRecord | null;
  /** Reads the changes deploy and configuration tools reported (changes.near_onset); null when none was recorded around the window. */
  readChanges: ChangeReader | null;
  /** Records a rollout a reasoner saw in the metrics as a change. */
  recordRollout: RolloutRecorder;
  /** Records calls between services a reasoner saw in the series of an integration. */
  recordCalls: (integrationId: string, pairs: ReadonlyArray<ServicePair>) => Promise<void>;
  sources: Array<SourceBrief & { connection: DataSourceConnection }>;
  budgets: Budgets;
  /** When the investigation first started: the wall clock counts from there, across restarts. */
  startedAt: Timestamp;
  /** Runs already recorded (by an earlier attempt), in ordinal order. */
  earlierRuns: ToolRun[];
  /** For a conversation turn: the runs that succeeded in the earlier turns it sees, with their turn numbers. */
  conversationRuns?: Array<{ turn: number; run: ToolRun }>;
}

const MAX_ERROR = 4096;

function recorded(run: ToolRun): RecordedRun {
  return {
    ordinal: run.ordinal,
    tool: run.tool,
    integrationId: run.integrationId,
    arguments: run.arguments,
    purpose: run.purpose,
    hypothesisId: run.hypothesisId,
    outcome: run.outcome === 'succeeded' ? 'succeeded' : 'failed',
    summary: run.summary ?? '',
    output: run.output ?? null,
    truncated: run.truncated,
    error: run.error,
    window: run.windowFrom && run.windowUntil ? { from: run.windowFrom, until: run.windowUntil } : null,
  };
}

/** A value as JSON with every object's keys sorted: PostgreSQL's jsonb keeps keys in an order of its own. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

const sameCall = (run: RecordedRun, call: ToolCall): boolean =>
  run.tool === call.tool && run.integrationId === (call.integrationId ?? null) && canonical(run.arguments) === canonical(call.arguments);

/** Arguments that give a read its time range themselves; without them a tool reads the investigation's window. */
const TIME_ARGUMENTS = ['start', 'end', 'time'];

/**
 * The engine's side of a reasoner's session: every tool call becomes a numbered tool run with
 * its activity events, written only while the investigation is still this worker's; budgets are
 * counted here, so every reasoner is held to the same ones.
 */
export class RecordingSession implements InvestigationSession {
  readonly investigationId: string;
  readonly subject: string;
  readonly window: ToolWindow;
  readonly incident: IncidentBrief | null;
  readonly conversation: ConversationContext | null;
  readonly alerts: AlertBrief[];
  readonly sources: SourceBrief[];
  readonly tools: SessionTool[];
  readonly budgets: Budgets;
  readonly runs: RecordedRun[];
  /** Why the work was stopped from outside, once it was. */
  stopReason: 'cancelled' | 'wall_clock' | null = null;

  private controller = new AbortController();
  private turns = 0;
  private stagnantTurns = 0;
  private evidenceAtLastTurn = -1;
  private readonly replayable: RecordedRun[];
  private readonly deadline: number;
  private wallClockTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly setup: SessionSetup,
    private readonly dataSource: DataSource,
    private readonly activity: ActivityService,
    private readonly catalog: ToolCatalog,
    private readonly repositories: { investigations: InvestigationsRepository; toolRuns: ToolRunsRepository },
  ) {
    this.investigationId = setup.investigationId;
    this.subject = setup.subject;
    this.window = setup.window;
    this.incident = setup.incident;
    this.conversation = setup.conversation;
    this.alerts = setup.alerts;
    this.sources = setup.sources.map(({ connection: _connection, ...source }) => source);
    this.budgets = setup.budgets;
    this.runs = setup.earlierRuns.map(recorded);
    this.replayable = this.runs.filter((run) => run.outcome === 'succeeded');
    const types = new Set(setup.sources.map((s) => s.type));
    this.tools = [
      setup.incident ? INCIDENT_ALERTS_TOOL : WINDOW_INCIDENTS_TOOL,
      ...(setup.incident && setup.kubernetesSnapshot?.takenAt && setup.kubernetesSnapshot.runs.length ? [KUBERNETES_SNAPSHOT_TOOL] : []),
      ...(setup.readChanges ? [CHANGES_NEAR_ONSET_TOOL] : []),
      ...catalog.list().filter((tool) => types.has(tool.integrationType)),
    ];
    this.deadline = Number(setup.startedAt.epochMicros / 1000n) + setup.budgets.wallClockSeconds * 1000;
    this.armWallClock();
  }

  get cancelled(): boolean {
    return this.stopReason === 'cancelled';
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops in-flight work at once: the investigation was cancelled or taken over. */
  cancel(): void {
    this.stopReason ??= 'cancelled';
    this.controller.abort(new InvestigationCancelled());
  }

  /**
   * After a budget stopped the run, the reasoner may still write its best conclusion: a fresh
   * signal (cancellation still stops it) with a short grace period of its own.
   */
  enterGracePeriod(seconds: number): void {
    clearTimeout(this.wallClockTimer);
    if (this.stopReason === 'cancelled') return;
    this.controller = new AbortController();
    this.wallClockTimer = setTimeout(
      () => this.controller.abort(new BudgetExhausted('wall_clock', 'The grace period for the conclusion ran out')),
      seconds * 1000,
    );
  }

  dispose(): void {
    clearTimeout(this.wallClockTimer);
  }

  beginTurn(): void {
    this.checkStillRunning();
    if (this.turns >= this.budgets.reasonerTurns) throw new BudgetExhausted('reasoner_turns', `Stopped after ${this.turns} reasoner turns (the budget)`);
    const evidence = this.runs.filter((run) => run.outcome === 'succeeded').length;
    this.stagnantTurns = evidence === this.evidenceAtLastTurn ? this.stagnantTurns + 1 : 0;
    if (this.stagnantTurns >= this.budgets.stagnationTurns) {
      throw new BudgetExhausted('reasoner_turns', `Stopped after ${this.stagnantTurns} reasoner turns without new evidence (the stagnation budget)`);
    }
    this.evidenceAtLastTurn = evidence;
    this.turns += 1;
  }

  /** Stored at once, added to the investigation's usage, so a cancel or a takeover loses none of it. */
  async recordUsage(usage: { inputTokens: number; outputTokens: number; contextTokens?: number }): Promise<void> {
    const spent = { inputTokens: Math.max(0, Math.round(usage.inputTokens)), outputTokens: Math.max(0, Math.round(usage.outputTokens)) };
    if (spent.inputTokens > 0 || spent.outputTokens > 0)
      await this.repositories.investigations.addUsage(this.setup.organizationId, this.investigationId, spent);
    if ((usage.contextTokens ?? 0) > this.budgets.contextTokens) {
      throw new BudgetExhausted('context', `The reasoner's context reached ${usage.contextTokens} tokens (the budget is ${this.budgets.contextTokens})`);
    }
  }

  async progress(message: string): Promise<void> {
    await this.write((manager) =>
      this.activity.append(manager, this.setup.organizationId, this.investigationId, 'progress', { message: message.slice(0, 1024) }),
    );
  }

  async updateHypotheses(hypotheses: HypothesisItem[]): Promise<void> {
    await this.write(async (manager) => {
      await this.repositories.investigations.storeHypotheses(this.setup.organizationId, this.investigationId, hypotheses, manager);
      await this.activity.append(manager, this.setup.organizationId, this.investigationId, 'hypothesis.updated', { hypotheses });
    });
  }

  /** Only a rollout a succeeded read of one of the session's sources showed is recorded. */
  async noteRollout(rollout: ObservedRollout): Promise<string | null> {
    const integrationId = this.sourceRead(rollout.run);
    return integrationId ? this.setup.recordRollout({ ...rollout, integrationId }) : null;
  }

  /** Only calls a succeeded read of one of the session's sources showed are recorded. */
  async noteCalls(run: RecordedRun, pairs: ReadonlyArray<ServicePair>): Promise<void> {
    const integrationId = this.sourceRead(run);
    if (integrationId && pairs.length) await this.setup.recordCalls(integrationId, pairs);
  }

  /** The integration a recorded run of this session read successfully, if it is one of its sources. */
  private sourceRead(run: RecordedRun): string | null {
    const read = this.runs.find((r) => r.ordinal === run.ordinal);
    const integrationId = read?.integrationId;
    return read?.outcome === 'succeeded' && integrationId && this.setup.sources.some((s) => s.integrationId === integrationId) ? integrationId : null;
  }

  async runTool(call: ToolCall): Promise<RecordedRun> {
    this.checkStillRunning();
    // After a restart, the earlier attempt's completed reads are reused rather than repeated.
    const replay = this.replayable.findIndex((run) => sameCall(run, call));
    if (replay >= 0) return this.replayable.splice(replay, 1)[0];
    if (this.runs.length >= this.budgets.toolRuns) throw new BudgetExhausted('tool_runs', `Stopped after ${this.runs.length} tool runs (the budget)`);

    const refusal = this.refusalOf(call);
    if (refusal) return this.recordRefused(call, refusal);
    const source = this.setup.sources.find((s) => s.integrationId === call.integrationId);
    const reused = this.reusable(call);
    const ordinal = await this.write(async (manager) => {
      const next = await this.nextOrdinal(manager);
      await this.repositories.toolRuns.insertRunning(
        this.setup.organizationId,
        {
          id: newId(),
          investigationId: this.investigationId,
          ordinal: next,
          tool: call.tool,
          integrationId: source?.integrationId ?? null,
          purpose: call.purpose.slice(0, 1024),
          hypothesisId: call.hypothesisId ?? null,
          arguments: call.arguments,
        },
        manager,
      );
      await this.activity.append(manager, this.setup.organizationId, this.investigationId, 'tool.started', {
        ordinal: next,
        tool: call.tool,
        integrationId: source?.integrationId ?? null,
        purpose: call.purpose.slice(0, 1024),
      });
      return next;
    });

    const result: ToolResult = reused
      ? {
          outcome: 'succeeded',
          summary: `Reused from turn ${reused.turn} (run #${reused.run.ordinal}), which made the same read: ${reused.run.summary ?? ''}`,
          output: reused.run.output,
          truncated: reused.run.truncated,
          sources: reused.run.sources,
          ...(reused.run.windowFrom && reused.run.windowUntil ? { window: { from: reused.run.windowFrom, until: reused.run.windowUntil } } : {}),
        }
      : source
        ? await this.catalog.run(call.tool, call.arguments, { connection: source.connection, window: this.window, signal: this.signal })
        : call.tool === WINDOW_INCIDENTS_TOOL.name
          ? runWindowIncidentsTool(this.setup.windowIncidents, this.window)
          : call.tool === CHANGES_NEAR_ONSET_TOOL.name
            ? await this.readChanges(call.arguments)
            : call.tool === KUBERNETES_SNAPSHOT_TOOL.name
              ? runKubernetesSnapshotTool(this.setup.kubernetesSnapshot!, this.window)
              : runIncidentAlertsTool(this.alerts, call.arguments, this.window);
    if (this.stopReason === 'wall_clock' && result.outcome === 'failed') result.error = 'Stopped: the wall-clock budget ran out during this run';
    const run: RecordedRun = {
      ordinal,
      tool: call.tool,
      integrationId: source?.integrationId ?? null,
      arguments: call.arguments,
      purpose: call.purpose,
      hypothesisId: call.hypothesisId ?? null,
      outcome: result.outcome,
      summary: result.summary,
      output: result.output,
      truncated: result.truncated,
      error: result.error?.slice(0, MAX_ERROR) ?? null,
      window: result.window ?? (source ? this.window : null),
    };
    await this.finishRun(run, result.sources);
    this.runs.push(run);
    this.checkStillRunning();
    return run;
  }

  /**
   * changes.near_onset: the recorded changes around the onset. A failed read is a failed run, like
   * any tool's, whose error says what failed without the database's own message.
   */
  private async readChanges(args: Record<string, unknown>): Promise<ToolResult> {
    try {
      return await runChangesNearOnsetTool(this.setup.readChanges!, this.alerts, args, this.window);
    } catch {
      const error = 'The recorded changes could not be read: the service database did not answer';
      return { outcome: 'failed', summary: error, output: null, truncated: false, sources: [], error };
    }
  }

  /**
   * A read an earlier turn of the conversation made already, whose answer still holds: the same
   * tool, integration and arguments, and either a time range of its own in the arguments (the
   * same range reads the same data) or the same window as this turn's (the tool read the window).
   */
  private reusable(call: ToolCall): { turn: number; run: ToolRun } | undefined {
    const ownRange = TIME_ARGUMENTS.some((k) => call.arguments[k] !== undefined);
    return this.setup.conversationRuns?.find(
      ({ run }) =>
        run.outcome === 'succeeded' &&
        sameCall(recorded(run), call) &&
        (ownRange ||
          (!!run.windowFrom &&
            !!run.windowUntil &&
            run.windowFrom.epochMicros === this.window.from.epochMicros &&
            run.windowUntil.epochMicros === this.window.until.epochMicros)),
    );
  }

  private refusalOf(call: ToolCall): string | null {
    if (call.tool === INCIDENT_ALERTS_TOOL.name) return this.incident ? null : `${call.tool} needs an incident, and this investigation has none`;
    if (call.tool === WINDOW_INCIDENTS_TOOL.name) return this.incident ? `${call.tool} is for questions without an incident; read incident.alert_events` : null;
    if (call.tool === KUBERNETES_SNAPSHOT_TOOL.name)
      return this.incident && this.setup.kubernetesSnapshot?.takenAt && this.setup.kubernetesSnapshot.runs.length
        ? null
        : `${call.tool} has nothing to read: no Kubernetes snapshot was taken when this investigation's incident opened`;
    if (call.tool === CHANGES_NEAR_ONSET_TOOL.name)
      return this.setup.readChanges
        ? changesNearOnsetRefusal(call.arguments)
        : `${call.tool} has nothing to read: no change was recorded around this investigation's window`;
    const tool = this.tools.find((t) => t.name === call.tool);
    if (!tool) return `Tool ${call.tool} is not available to this investigation; the tools are ${this.tools.map((t) => t.name).join(', ')}`;
    const source = this.setup.sources.find((s) => s.integrationId === call.integrationId);
    if (!source) return `Integration ${call.integrationId ?? '(none)'} is not a source of this investigation`;
    if (source.type !== tool.integrationType) return `${call.tool} reads ${tool.integrationType} integrations; ${source.name} is ${source.type}`;
    return this.catalog.validate(call.tool, call.arguments);
  }

  /** A refused call is a failed read, recorded, and never reported as started against an integration. */
  private async recordRefused(call: ToolCall, error: string): Promise<RecordedRun> {
    const run = await this.write(async (manager) => {
      const ordinal = await this.nextOrdinal(manager);
      const refused: RecordedRun = {
        ordinal,
        tool: call.tool,
        integrationId: null,
        arguments: call.arguments,
        purpose: call.purpose,
        hypothesisId: call.hypothesisId ?? null,
        outcome: 'failed',
        summary: `Refused: ${error}`.slice(0, 1024),
        output: null,
        truncated: false,
        error: error.slice(0, MAX_ERROR),
        window: null,
      };
      await this.repositories.toolRuns.insertRefused(
        this.setup.organizationId,
        {
          id: newId(),
          investigationId: this.investigationId,
          ordinal,
          tool: call.tool,
          purpose: call.purpose.slice(0, 1024),
          hypothesisId: call.hypothesisId ?? null,
          arguments: call.arguments,
          summary: refused.summary,
          error: refused.error!,
        },
        manager,
      );
      await this.activity.append(manager, this.setup.organizationId, this.investigationId, 'tool.completed', {
        ordinal,
        tool: call.tool,
        integrationId: null,
        outcome: 'failed',
        summary: refused.summary,
        truncated: false,
      });
      return refused;
    });
    this.runs.push(run);
    return run;
  }

  private async finishRun(run: RecordedRun, sources: string[]): Promise<void> {
    await this.write(async (manager) => {
      await this.repositories.toolRuns.finish(
        this.setup.organizationId,
        this.investigationId,
        run.ordinal,
        {
          outcome: run.outcome,
          summary: run.summary.slice(0, 4096),
          sources,
          truncated: run.truncated,
          error: run.error,
          output: run.output,
          window: run.window,
        },
        manager,
      );
      await this.activity.append(manager, this.setup.organizationId, this.investigationId, 'tool.completed', {
        ordinal: run.ordinal,
        tool: run.tool,
        integrationId: run.integrationId,
        outcome: run.outcome,
        summary: run.summary.slice(0, 1024),
        truncated: run.truncated,
      });
    });
  }

  private async nextOrdinal(manager: EntityManager): Promise<number> {
    return this.repositories.toolRuns.nextOrdinal(this.setup.organizationId, this.investigationId, manager);
  }

  /**
   * A write of this worker's: in one transaction that first locks the investigation and checks
   * that it is still investigating under this worker's claim.
   */
  async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.repositories.investigations.claimState(this.setup.organizationId, this.investigationId, { lock: true }, manager);
      if (!heldBy(row, this.setup.claim)) {
        this.cancel();
        throw new NoLongerOurs(
          `Investigation ${this.investigationId} is ${row?.status ?? 'gone'}${row?.claim !== this.setup.claim ? ' and claimed by another attempt' : ''}`,
        );
      }
      return work(manager);
    });
  }

  private checkStillRunning(): void {
    if (this.stopReason === 'cancelled') throw new InvestigationCancelled();
    if (this.stopReason === 'wall_clock' || Date.now() >= this.deadline) {
      this.stopReason = 'wall_clock';
      throw new BudgetExhausted('wall_clock', `Stopped at the wall-clock budget of ${this.budgets.wallClockSeconds} s`);
    }
  }

  private armWallClock(): void {
    this.wallClockTimer = setTimeout(
      () => {
        this.stopReason ??= 'wall_clock';
        this.controller.abort(new BudgetExhausted('wall_clock', `Stopped at the wall-clock budget of ${this.budgets.wallClockSeconds} s`));
      },
      Math.max(0, this.deadline - Date.now()),
    );
  }
}
