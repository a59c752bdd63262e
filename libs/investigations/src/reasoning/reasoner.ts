import type { ServicePair } from '@svc/changes';
import type { AdmittedAlert } from '@svc/incidents';
import type { Timestamp } from '@svc/platform';
import type { Conclusion, HypothesisItem, StoppedBy } from '../conclusion.types';
import type { DataSourceType, ToolDescriptor, ToolWindow } from '../tools/tool.types';
import type { ConversationContext } from '../turn.types';

export interface IncidentBrief {
  id: string;
  title: string;
  status: string;
  labels: Record<string, string>;
  openedAt: Timestamp;
  resolvedAt: Timestamp | null;
}

/** One alert of the incident, at its latest phase (the shape admission stores). */
export type AlertBrief = AdmittedAlert;

/** An integration selected for the investigation, and the tools that read it. */
export interface SourceBrief {
  integrationId: string;
  type: DataSourceType;
  name: string;
  rank: number;
  reason: string;
  /** The services a datastore serves, as its integration names them (empty when it names none). */
  services?: string[];
  /** Where a datastore or broker read directly is reached (`host`, `host:port`), for matching the addresses alerts name. */
  addresses?: string[];
}

/** A tool as a reasoner sees it; `integrationType` null for tools over the service's own data. */
export type SessionTool = Omit<ToolDescriptor, 'integrationType'> & { integrationType: DataSourceType | null };

export interface ToolCall {
  tool: string;
  /** The source to read; required for tools over an integration, null for the service's own data. */
  integrationId: string | null;
  arguments: Record<string, unknown>;
  /** Why the reasoner reads this (shown to people). */
  purpose: string;
  /** The hypothesis this run tests, if it tests one. */
  hypothesisId?: string;
}

/** A tool run as recorded: its ordinal is what findings cite. */
export interface RecordedRun {
  ordinal: number;
  tool: string;
  integrationId: string | null;
  arguments: Record<string, unknown>;
  purpose: string;
  hypothesisId: string | null;
  outcome: 'succeeded' | 'failed';
  summary: string;
  output: unknown;
  truncated: boolean;
  error: string | null;
  window: ToolWindow | null;
}

/**
 * A new version a reasoner saw start in the metrics of a Prometheus integration: recorded as a
 * change (see InvestigationSession.noteRollout), so the incident's timeline holds it beside the
 * changes that deploy tools reported.
 */
export interface ObservedRollout {
  /** The run whose series showed it (a prometheus.query_range over an integration). */
  run: RecordedRun;
  /** When the new version started (its first replica). */
  at: Timestamp;
  /** `kubernetes`: a container's new image in kube_pod_container_info; `prometheus`: a program's own *_build_info. */
  seenIn: 'kubernetes' | 'prometheus';
  /** The program: the container, or the job of the build series. */
  program: string;
  namespace: string | null;
  versionBefore: string | null;
  versionAfter: string;
  /** The labels of the series that showed the new version. */
  labels: Record<string, string>;
}

export interface Budgets {
  toolRuns: number;
  reasonerTurns: number;
  wallClockSeconds: number;
  stagnationTurns: number;
  contextTokens: number;
}

/** Thrown by the session when a budget is spent; the engine then asks for the best conclusion so far. */
export class BudgetExhausted extends Error {
  constructor(
    readonly stoppedBy: StoppedBy,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Thrown by the session once the investigation was cancelled: the reasoner stops at once. */
export class InvestigationCancelled extends Error {
  constructor() {
    super('The investigation was cancelled');
  }
}

/**
 * What a reasoner works with: the question, the incident, the sources and tools, and the
 * budgets. Every read goes through `runTool`, which records it as a numbered tool run.
 */
export interface InvestigationSession {
  readonly investigationId: string;
  readonly subject: string;
  readonly window: ToolWindow;
  /** Null for a conversation turn without an incident. */
  readonly incident: IncidentBrief | null;
  /** For a conversation turn: the message that asked, and the earlier messages and conclusions. */
  readonly conversation: ConversationContext | null;
  readonly alerts: AlertBrief[];
  readonly sources: SourceBrief[];
  readonly tools: SessionTool[];
  readonly budgets: Budgets;
  /** Aborted on cancellation and when the wall clock runs out: pass it to every slow call. */
  readonly signal: AbortSignal;
  /** Runs recorded so far (including those of an earlier attempt after a worker restart). */
  readonly runs: readonly RecordedRun[];

  /** Counts a reasoner turn; throws BudgetExhausted (turns, stagnation, wall clock) or InvestigationCancelled. */
  beginTurn(): void;
  /**
   * Records and runs a tool. A refused call (unknown tool, no such source, invalid arguments) is
   * recorded as a failed run without contacting anything. After a worker restart, a call identical
   * to a completed run of the earlier attempt returns that run instead of reading again.
   * Throws BudgetExhausted (tool runs, wall clock) or InvestigationCancelled.
   */
  runTool(call: ToolCall): Promise<RecordedRun>;
  /** Adds a language model's real token usage to the stored total; throws BudgetExhausted('context') past the context budget. */
  recordUsage(usage: { inputTokens: number; outputTokens: number; contextTokens?: number }): Promise<void>;
  /** A progress line for the people watching (an activity event). */
  progress(message: string): Promise<void>;
  /** The running hypotheses (shown by `.../hypotheses` and listed as `hypothesis.updated` activity). */
  updateHypotheses(hypotheses: HypothesisItem[]): Promise<void>;
  /**
   * Records a rollout seen in the metrics as a change of the Organization (once per program and
   * version, whoever sees it again), and answers its id. A failure to record it is logged, never
   * the investigation's: null then.
   */
  noteRollout(rollout: ObservedRollout): Promise<string | null>;
  /**
   * Records the calls between services that the series of a run showed (caller → callee), so that
   * later investigations and the incident's changes include what an alerting service calls. A
   * failure to record them is logged, never the investigation's.
   */
  noteCalls(run: RecordedRun, pairs: ReadonlyArray<ServicePair>): Promise<void>;
}

/** One reasoner instance works one investigation. */
export interface Reasoner {
  /** `built-in`, or the provider and model of a language model. */
  readonly name: string;
  investigate(session: InvestigationSession): Promise<Conclusion>;
  /** After a budget stopped the run: the best conclusion from what it has, without running tools. */
  concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion>;
}

/** Thrown by a reasoner for a failure that ends the investigation as `failed` with this message. */
export class ReasonerFailure extends Error {}
