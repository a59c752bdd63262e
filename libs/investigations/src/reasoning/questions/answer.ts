import type { Conclusion, FindingItem, LimitationItem, StoppedBy } from '../../conclusion.types';
import type { InvestigationSession, RecordedRun } from '../reasoner';

/** The runs a statement rests on: one, or several, leaving out those that were not made. */
type Cited = RecordedRun | null | undefined | Array<RecordedRun | null | undefined>;

/** The distinct ordinals of the runs cited, in order. */
const ordinalsOf = (runs: Cited): number[] => [...new Set((Array.isArray(runs) ? runs : [runs]).flatMap((r) => (r ? [r.ordinal] : [])))].sort((a, b) => a - b);

/**
 * An answer to a question about an incident, written as it is found: each statement with the run
 * it comes from (cited `[#n]` in the text, and a finding citing the run), what the data cannot
 * answer (in the text and as a limitation), then the conclusion of the turn.
 */
export class AnswerWriter {
  private readonly findings: FindingItem[] = [];
  private readonly limitations: LimitationItem[] = [];
  private readonly lines: string[] = [];

  /** A statement the runs show (one or several), with a Markdown table of its breakdown. */
  record(session: InvestigationSession, statement: string, runs: Cited, table?: string): void {
    const cited = ordinalsOf(runs);
    this.lines.push(`${statement} [${cited.map((n) => `#${n}`).join(', ')}]${table ? `\n\n${table}\n` : ''}`);
    this.findings.push({
      kind: 'context',
      statement,
      mechanism: '',
      runRefs: cited,
      evidenceRefs: cited.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
    });
  }

  /** What the data cannot answer, said in the answer and as a limitation citing the runs that showed it. */
  cannot(statement: string, runs: Cited): void {
    const cited = ordinalsOf(runs);
    const sentence = statement[0].toUpperCase() + statement.slice(1);
    this.lines.push(`${sentence}${cited.length ? ` [${cited.map((n) => `#${n}`).join(', ')}]` : ''}.`);
    this.limit('missing_telemetry', sentence, cited);
  }

  /** A sentence about the question itself (that it was asked before), without numbers of its own and so without a run to cite. */
  note(sentence: string): void {
    this.lines.push(sentence);
  }

  /** What the answer says so far, for a later part of the same message that refers to it. */
  text(): string {
    return this.lines.join('\n');
  }

  limit(type: LimitationItem['type'], statement: string, runRefs: number[]): void {
    this.limitations.push({ type, statement, runRefs, messageSequences: [] });
  }

  /** The turn's conclusion: the statements in order, or why nothing could be answered. */
  conclusion(session: InvestigationSession, stoppedBy: StoppedBy | null): Conclusion {
    const limitations = [...this.limitations];
    if (stoppedBy)
      limitations.push({
        type: 'budget',
        statement: `The answer stopped at its ${stoppedBy.replace('_', ' ')} budget before it was complete`,
        runRefs: [],
        messageSequences: [],
      });
    for (const run of session.runs.filter((r) => r.outcome === 'failed' && !limitations.some((l) => l.runRefs.includes(r.ordinal))))
      limitations.push({ type: 'tool_failure', statement: `${run.tool} failed: ${run.error ?? 'no detail'}`, runRefs: [run.ordinal], messageSequences: [] });
    const unanswered = `The question could not be answered from the sources${limitations.length ? `: ${limitations.map((l) => l.statement[0].toLowerCase() + l.statement.slice(1)).join('; ')}` : ''}.`;
    const summary = (this.lines.length ? this.lines.join('\n') : unanswered).slice(0, 4096);
    const refs = [...new Set(this.findings.flatMap((f) => f.runRefs))];
    return {
      conclusionStatus: 'answer_only',
      summary,
      impact: { summary: session.incident ? `Asked about incident "${session.incident.title}"` : 'Not assessed', runRefs: refs },
      findings: this.findings,
      hypotheses: [],
      actions: [],
      limitations,
    };
  }
}
