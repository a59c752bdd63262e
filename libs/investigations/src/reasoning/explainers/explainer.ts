import type { Timestamp } from '@svc/platform';
import type { ActionItem, LimitationItem } from '../../conclusion.types';
import type { ObservedRollout, RecordedRun } from '../reasoner';
import type { ExplainerContext } from './context';

/**
 * A cause an explainer found and dated near the onset: what happened, when, the run that showed it,
 * the runs that tested its mechanism (queries that would have come back empty or flat otherwise),
 * the further runs of its causal chain, and what the data leaves unexplained about it.
 */
export interface DetectedCause {
  /** The hypothesis id, one per cause family (`h-dependency`, `h-filesystem`, ...). */
  id: string;
  /** The cause as a hypothesis: "... caused the alert's condition". */
  statement: string;
  at: Timestamp;
  run: RecordedRun;
  mechanism: string;
  mechanismRuns: number[];
  chainRuns: number[];
  unexplained: string[];
  action: Omit<ActionItem, 'runRefs'>;
  /** A candidate stated and ruled out by what the explainer read: why, and the runs that show it. */
  refuted?: { because: string; runs: number[] };
  /** The pods whose restarts this cause explains (a restart of one of them is a step of its chain, not a cause of its own). */
  restartedPods?: string[];
  /** The dependency this cause is about, as the alerting service's calls name it (a peer that slowed or failed). */
  peer?: string;
  /** For a peer that slowed: how many times slower its calls answered than before. */
  slowdown?: number;
  /** For a cause the logs show: its template began with the onset (none in the half hour before), not one that only grew. */
  newInLogs?: boolean;
  /**
   * For a new build: the selector of its series (every replica running it), when its last replica
   * started, and the rollout as the metrics showed it (recorded as a change unless a deploy tool
   * reported it).
   */
  rollout?: { selector: string; rolledOutAt: Timestamp | null; observed?: ObservedRollout };
  /** For a proximate event (a restart, CPU saturation): the labels of the series that showed it, to ask why it happened. */
  subject?: Record<string, string>;
}

/** What the reasoner knows of the alert's condition when it asks why a cause happened (see Explainer.askWhy). */
export interface ConditionKnown {
  /** The alert rule's expression, when it was read. */
  expression: string | null;
  /** The labels of the condition's first series: which replica labels it can be joined on. */
  labels: Record<string, string>;
  /** When the condition began. */
  onset: Timestamp;
  /** The runs the cause's hypothesis cites so far, its precedence test last. */
  hypothesisRuns: number[];
  /** Pods whose liveness probes were read and passed near the onset, by any explainer, with the run that read them. */
  livenessPassed: ReadonlyMap<string, number>;
}

/** What asking why a cause happened showed: the runs read, those that tested its mechanism, the cause restated, and limitations. */
export interface WhyAnswer {
  /** Every run the question made (cited by the cause's hypothesis). */
  runs: number[];
  /** The runs that tested the cause's mechanism (queries that would have come back empty or flat otherwise). */
  mechanismRuns: number[];
  /** The cause as the answer restates it (an out-of-memory kill instead of a restart). */
  restated?: Partial<Pick<DetectedCause, 'statement' | 'at' | 'mechanism' | 'action' | 'unexplained'>>;
  limitations: LimitationItem[];
}

/** What the explainers know of the alert investigated. */
export interface DetectionScope {
  onset: Timestamp;
  /** The alert's own labels. */
  labels: Record<string, string>;
  /** The alert's job, when it names one that is not a Kubernetes exporter's. */
  job?: string;
  /** The alerts' one job, whatever scrapes it (an exporter's too): the scope of the reads of process restarts, targets and CPU. */
  scrapeJob?: string;
  namespace?: string;
  /** Label matchers of the alerting workload's pods (namespace and pod), '' when the alert names none. */
  pods: string;
  /** The workload the alert's pods belong to, when known. */
  workload?: string;
  /** The alert's condition is about latency (a duration histogram), not errors. */
  latency: boolean;
  /** The alert rule's expression, when it was read. */
  expression?: string;
}

/**
 * A cause found that continues the chain of a cause found before it (a probe that failed because
 * of a slow dependency): the earlier cause becomes a step of this one and leaves the list.
 */
export interface TakeOver {
  cause: DetectedCause;
  replaces: DetectedCause;
}

/** What an explainer found: nothing, a cause, several (some of them stated and ruled out, some taking over one found before), or a cause that takes over one found before. */
export type Explained = DetectedCause | Array<DetectedCause | TakeOver> | TakeOver | null;

/**
 * One family of causes, read from the standard exporters' series for the alert's entity and its
 * relations. Explainers run in the registry's order; a series that does not exist makes an
 * explainer find nothing, never fail the investigation.
 */
export interface Explainer {
  /** The family, as people call it ("crash loop", "CPU throttling"). */
  readonly name: string;
  /**
   * The metrics its first read needs (PromQL regular expressions of names): when none of them has
   * series in the window, it reads nothing.
   */
  readonly reads: readonly string[];
  /** Whether the alert's labels give it anything to read (a job, pods, a queue). */
  appliesTo(scope: DetectionScope): boolean;
  /** Reads and dates its causes near the onset; `found` are the causes the explainers before it found. */
  explain(context: ExplainerContext, found: readonly DetectedCause[]): Promise<Explained>;
  /**
   * Called instead of `explain` when none of the metrics it reads has series in the window, for a
   * family whose absence says something of its own (no build series: deployments cannot be seen);
   * without it, the family is listed among those not looked for.
   */
  unseen?(context: ExplainerContext): void;
  /**
   * Why a cause it found happened (a restart: was the container killed for running out of memory?
   * saturation: did traffic surge?), asked once the cause passed the precedence test, or at once
   * where no test follows. The answer restates the cause with what the data shows.
   */
  askWhy?(context: ExplainerContext, cause: DetectedCause, condition: ConditionKnown): Promise<WhyAnswer>;
}
