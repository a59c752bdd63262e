/** The postmortem document (interface-spec: Postmortem), its limits and the fields a person may set. */

/** What stands wherever only a person knows the fact and nobody supplied it. */
export const NEEDS_HUMAN_INPUT = 'Needs human input.';

export const TITLE_MAX = 1024;
export const LONG_TEXT_MAX = 32768;
export const ENTRY_MAX = 8192;
/** Entries a list may hold (decided here: the spec gives no bound). */
export const LIST_MAX = 1000;

export type PostmortemStatus = 'draft' | 'reviewed';

/** Where a timeline entry comes from: the record it was read from. */
export interface FactSource {
  kind: 'alert_event' | 'incident' | 'investigation' | 'change';
  id: string;
}

export interface TimelineEntry {
  at: string;
  description: string;
  runRefs: number[];
  investigationId: string | null;
  source: FactSource | null;
}

export interface CitedStatement {
  statement: string;
  runRefs: number[];
  investigationId: string | null;
}

export interface ActionItemEntry {
  title: string;
  owner: string;
  deadline: string;
  verification: string;
  runRefs: number[];
  investigationId: string | null;
}

export interface PostmortemDocument {
  title: string;
  executiveSummary: string;
  impact: string;
  detection: string;
  timeline: TimelineEntry[];
  rootCauses: CitedStatement[];
  contributingFactors: CitedStatement[];
  resolution: string;
  whatWentWell: string[];
  whatWentWrong: string[];
  detectionGaps: string[];
  openQuestions: string[];
  actionItems: ActionItemEntry[];
}

export type DocumentField = keyof PostmortemDocument;

/** Every field of the document, in the order the report shows them. */
export const DOCUMENT_FIELDS: readonly DocumentField[] = [
  'title',
  'executiveSummary',
  'impact',
  'detection',
  'timeline',
  'rootCauses',
  'contributingFactors',
  'resolution',
  'whatWentWell',
  'whatWentWrong',
  'detectionGaps',
  'openQuestions',
  'actionItems',
];

/** The fields a language model may write (from the facts only), when no person set them. */
export const NARRATIVE_FIELDS = ['executiveSummary', 'impact', 'detection'] as const satisfies readonly DocumentField[];
export type NarrativeField = (typeof NARRATIVE_FIELDS)[number];

/** Why a revision exists. */
export type RevisionKind = 'generated' | 'regenerated' | 'corrected' | 'narrative';
