import type { Timestamp } from '@svc/platform';
import type { ActionItem } from '../../conclusion.types';
import type { RecordedRun } from '../reasoner';
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
}

/** What the explainers know of the alert investigated. */
export interface DetectionScope {
  onset: Timestamp;
  /** The alert's own labels. */
  labels: Record<string, string>;
  /** The alert's job, when it names one that is not a Kubernetes exporter's. */
  job?: string;
  namespace?: string;
  /** Label matchers of the alerting workload's pods (namespace and pod), '' when the alert names none. */
  pods: string;
  /** The workload the alert's pods belong to, when known. */
  workload?: string;
  /** The alert's condition is about latency (a duration histogram), not errors. */
  latency: boolean;
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
}
