import type { HypothesisItem } from '../conclusion.types';
import type { InvestigationSession } from './reasoner';

/**
 * The model's running hypotheses: replaced whole by `update_hypotheses`, grown by tool calls that
 * name a new `hypothesisId`, and given each testing run's ordinal. Published to the session once
 * per turn, and only when something changed.
 */
export class LanguageModelHypotheses {
  private items = new Map<string, HypothesisItem>();
  private changed = false;

  list(): HypothesisItem[] {
    return [...this.items.values()].map((h) => ({ ...h, runRefs: [...h.runRefs] }));
  }

  replace(hypotheses: HypothesisItem[]): void {
    this.items = new Map(hypotheses.map((h) => [h.id, { ...h, runRefs: [...new Set(h.runRefs)] }]));
    this.changed = true;
  }

  /** A tool run that tests `id`: states the hypothesis when it is new and cites the run. */
  tested(id: string, statement: string | undefined, test: string, ordinal: number): void {
    let item = this.items.get(id);
    if (!item) {
      item = { id, statement: statement ?? `(stated by a tool call) ${test}`, status: 'untested', test, runRefs: [] };
      this.items.set(id, item);
    }
    if (!item.runRefs.includes(ordinal)) item.runRefs.push(ordinal);
    this.changed = true;
  }

  async publish(session: InvestigationSession): Promise<void> {
    if (!this.changed) return;
    this.changed = false;
    await session.updateHypotheses(this.list());
  }
}
