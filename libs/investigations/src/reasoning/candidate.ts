import type { Timestamp } from '@svc/platform';
import type { ActionItem, HypothesisItem } from '../conclusion.types';
import type { DetectedCause } from './explainers/explainer';
import type { ObservedRollout, RecordedRun } from './reasoner';
import type { RecordedChange } from './recorded-changes';

/**
 * A change seen near the onset, and the hypothesis it suggests. A change people made (a new
 * version) can end a causal chain; a proximate event (a restart, a target down, CPU saturation)
 * has a cause of its own, named in `unexplained` until the data shows it.
 */
export interface Candidate {
  hypothesis: HypothesisItem;
  at: Timestamp;
  run: RecordedRun;
  mechanism: string;
  action: Omit<ActionItem, 'runRefs'>;
  unexplained: string[];
  /** For a new version: the build series' selector, to tie the condition to the replicas that run it. */
  buildSelector?: string;
  /** For a new version: when the last replica of the build it replaced stopped (null while some still ran). */
  rolledOutAt?: Timestamp | null;
  /** Why a supported-looking change is ruled out anyway. */
  refutedBecause?: string;
  /** For a proximate event: the labels of the series that showed it, to ask why it happened. */
  subject?: Record<string, string>;
  /** For a cause a detector found: its mechanism's runs and the runs of its causal chain. */
  detected?: DetectedCause;
  /** For a change a deploy or configuration tool reported: the change. */
  recorded?: RecordedChange;
  /** For a new version: the rollout as the metrics showed it, recorded as a change unless a deploy tool reported it. */
  observed?: ObservedRollout;
  /**
   * A rise of the alerting entity's own latency or failures: the condition showing itself, which
   * stands as the cause only until something beneath it does (its saturation or restarts are causes).
   */
  ownSymptom?: boolean;
  /** A ranked suspect whose change is a rise of latency alone (no saturation, restarts, failures): a slow service may be waiting on another. */
  latencyOnly?: boolean;
  /** The recorded change it is: the reported change, the report of a new build, or the rollout recorded from the metrics. */
  changeId?: string;
}
