/** The conclusion's shapes (interface-spec: Investigation). */
export type ConclusionStatus = 'verified_cause' | 'supported_explanation' | 'inconclusive' | 'answer_only';
/** Stagnation (turns without new evidence) stops a run as `reasoner_turns`: the contract's four values. */
export type StoppedBy = 'tool_runs' | 'reasoner_turns' | 'wall_clock' | 'context';

export interface EvidenceRef {
  investigationId: string;
  toolRunOrdinal: number;
}

export interface Impact {
  summary: string;
  runRefs: number[];
}

export interface FindingItem {
  statement: string;
  /** `cause`, `symptom`, `context` or `ruled_out`. */
  kind: 'cause' | 'symptom' | 'context' | 'ruled_out';
  mechanism: string;
  runRefs: number[];
  evidenceRefs: EvidenceRef[];
  /** The hypothesis the finding confirms, when it does. */
  hypothesisId?: string;
  /** A cause finding's claim to be verified; checked before the conclusion is stored, stored with the finding, and not part of the investigation's response. */
  verification?: CauseVerification;
}

/**
 * What makes a cause verified rather than merely supported (docs/api.md, "Conclusion status"): the
 * cause precedes the onset, a run tested its mechanism with a query whose result would have come
 * out otherwise (memory at the limit and an OOM-killed reason, errors on the instances running the
 * new version), and no step of the causal chain is left unexplained.
 */
export interface CauseVerification {
  /** When the cause happened and when the condition began (ISO timestamps); the cause must not be later. */
  causeAt: string;
  onsetAt: string;
  /** Runs that tested the mechanism. */
  mechanismRunRefs: number[];
  /** What the data leaves unexplained about the cause itself (why a process restarted, what drove the CPU up); empty when the chain ends here. */
  unexplained: string[];
}

export interface HypothesisItem {
  id: string;
  statement: string;
  /** `untested`, `supported`, `refuted` or `inconclusive`. */
  status: 'untested' | 'supported' | 'refuted' | 'inconclusive';
  test: string;
  runRefs: number[];
}

export interface ActionItem {
  title: string;
  rationale: string;
  verification: string;
  runRefs: number[];
}

export interface LimitationItem {
  /** `missing_telemetry`, `tool_failure`, `budget` or `scope`. */
  type: 'missing_telemetry' | 'tool_failure' | 'budget' | 'scope';
  statement: string;
  runRefs: number[];
  messageSequences: number[];
}

/**
 * What the evidence plot shows first: the symptom against its threshold, the cause's own series,
 * and the times the conclusion states. Run ordinals name runs of the investigation.
 */
export interface EvidencePlot {
  /** The run that read the alert's expression without its comparison (else the condition itself), and the threshold it is compared with. */
  symptom: { runOrdinal: number; comparison: string | null; threshold: number | null } | null;
  /** The run that shows the cause's own series, and when the cause happened. */
  cause: { runOrdinal: number; at: string } | null;
  /** When the condition began, as the conclusion states it. */
  onsetAt: string | null;
  /** When the first of the investigated alerts began. */
  alertStartsAt: string | null;
  /**
   * The changes near the onset examined as causes: when, what, the run that showed each, and the
   * recorded change it is (a reported change, or a rollout recorded from the metrics), when it is one.
   */
  changes: Array<{ at: string; summary: string; runOrdinal: number; changeId?: string | null }>;
}

/** What a reasoner concludes; the engine validates it before it is stored. */
export interface Conclusion {
  conclusionStatus: ConclusionStatus;
  summary: string;
  impact: Impact;
  findings: FindingItem[];
  hypotheses: HypothesisItem[];
  actions: ActionItem[];
  limitations: LimitationItem[];
  /**
   * A question for the person (conversation turns only): the turn ends `needs_input` with the
   * question as its answer, and the person's next message starts the next turn.
   */
  question?: string;
  /** What the evidence plot shows first; derived from the cause's verification when a reasoner gives none. */
  plot?: EvidencePlot | null;
  /**
   * A source the investigation depends on could not be read (its limitations name it and the
   * error): the investigation ends `partial` rather than `concluded`, whatever stopped it.
   */
  incomplete?: boolean;
}
