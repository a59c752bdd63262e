import type { Timestamp } from '@svc/platform';
import type { FindingItem, HypothesisItem, LimitationItem } from '../../conclusion.types';
import type { Candidate } from '../candidate';
import { MetricPresence } from '../discovery/metric-presence';
import type { ExplainedCauses } from '../explainers/registry';
import type { Placement } from '../localize/localize';
import type { AlertBrief, InvestigationSession, RecordedRun } from '../reasoner';
import type { UnreadSource } from '../source-failure';
import type { Threshold } from '../threshold';

/** When the alert's condition began, the runs that dated it, and the rule's expression (null when no rule was read). */
export interface Onset {
  at: Timestamp;
  runs: number[];
  expression: string | null;
}

/** A candidate once tested: the run that tested it, whether it held, and the runs that showed its mechanism. */
export interface Tested {
  run: RecordedRun;
  supported: boolean;
  candidate: Candidate;
  mechanismRuns: number[];
}

/** An alert of the incident other than the one investigated, and why it was not the one. */
export interface OtherAlert {
  alertname: string;
  labels: Record<string, string>;
  why: string;
  run: RecordedRun | undefined;
}

/**
 * What the analysis of an incident knows so far, shared by its steps (choosing the alert, dating
 * the condition, the changes and causes near it, their tests, the walk down the calls, the
 * conclusion): each step reads what the ones before it found and adds its own.
 */
export class Analysis {
  readonly hypotheses: HypothesisItem[] = [];
  readonly limitations: LimitationItem[] = [];
  onset: Onset | null = null;
  /** The labels of the condition's first series: which replica labels it can be joined on. */
  conditionLabels: Record<string, string> = {};
  alertRun: RecordedRun | undefined;
  /** The alert's expression without its comparison, read over the window, and the threshold it is compared with. */
  symptom: { run: RecordedRun; threshold: Threshold } | null = null;
  /** The candidates tested, by hypothesis id, in the order they are stated. */
  readonly tested = new Map<string, Tested>();
  /** The changes on the alerting service once read (a new version, restarts, targets down, CPU): their families ask why. */
  changes: ExplainedCauses | null = null;
  /** The cause detectors once run: what they read answers some of the questions asked of proximate events. */
  detectors: ExplainedCauses | null = null;
  /** The alerts investigated: those of the alert that started the incident (all, when there is one). */
  alerts: AlertBrief[] = [];
  /** The incident's other alerts, and why they were not investigated first. */
  readonly others: OtherAlert[] = [];
  /** The metrics source, once it is found that it could not be read: nothing is concluded from it after that. */
  unread: UnreadSource | null = null;
  /** Where the alerting entity sits among what it calls and where it runs, once placed. */
  placement: Placement | null = null;
  /** Services that suffer from the cause (they wait on it), stated as symptoms. */
  readonly consequences: FindingItem[] = [];
  /** The alert's condition did not hold when it fired (raised by hand): a change passes its test by preceding the alert alone. */
  conditionAbsent = false;
  /** Which of the metrics the checks read are collected in the window. */
  presence = MetricPresence.UNKNOWN;
  /** The checks left out because none of the metrics they read has series in the window (a limitation unless a cause is verified). */
  readonly notLookedFor: string[] = [];

  /** Whether a tested hypothesis is supported so far. */
  supportedYet(): boolean {
    return [...this.tested.values()].some((t) => t.supported);
  }

  /** The runs that read the alert's condition (its rule and its range), for what rests on the condition alone. */
  conditionRuns(session: InvestigationSession): RecordedRun[] {
    const runs = new Set(this.onset?.runs ?? []);
    return session.runs.filter((r) => runs.has(r.ordinal) && r.outcome === 'succeeded');
  }

  /** The alerts' labels, one set per alert investigated. */
  get alertLabels(): Array<Record<string, string>> {
    return this.alerts.map((a) => a.labels);
  }
}
