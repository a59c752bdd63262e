/**
 * What a question about an incident, asked in a conversation, must be answered with (see
 * eval/conversations.ts, which scores each case against the scenario's data in a real Prometheus).
 * The expectations name what the data shows (numbers computed by PromQL, times, pods and nodes of
 * the generator, service names, versions, routes), never the wording of an answer.
 */
export type Expect =
  /** A number of the answer (the first, or any within a compound's `all`) within `tolerance` (relative) of what the PromQL `number` gives at the answer's end. */
  | { number: string; tolerance: number }
  /** The pods (and their nodes) the generator rolled the version out to. */
  | { podsOf: { workload: string; version: string } }
  /** The answer says the signal went this way. */
  | { direction: 'up' | 'down' | 'about the same' }
  /** The turn asks which service is meant, offering this one first. */
  | { asksFirst: string }
  /** The turn asks which subject is meant (a name the sources do not know). */
  | { asks: true }
  /** A time of the answer (the first, or any within a compound's `all`) is within `tolerance` minutes of `at` minutes before the data's end. */
  | { at: number; tolerance: number }
  /** The answer says what the data cannot tell, and claims nothing in its place. */
  | { cannot: true }
  /** The answer contains every one of `contains` and none of `excludes`. */
  | { contains: string[]; excludes?: string[] }
  /** A question of several parts: the one answer holds every part's expectation. */
  | { all: Expect[] };

export interface QuestionCase {
  /** The scenario (eval/scenarios.ts) whose incident the conversation is about. */
  scenario: string;
  /**
   * `dev` cases may be tuned on; `holdout` to `holdout-15` cases are written before the
   * code they score and never tuned on (each set written after the one before it had been scored).
   */
  split:
    | 'dev'
    | 'holdout'
    | 'holdout-2'
    | 'holdout-3'
    | 'holdout-4'
    | 'holdout-5'
    | 'holdout-6'
    | 'holdout-7'
    | 'holdout-8'
    | 'holdout-9'
    | 'holdout-10'
    | 'holdout-11'
    | 'holdout-12'
    | 'holdout-13'
    | 'holdout-14'
    | 'holdout-15';
  message: string;
  /** Questions asked before in the same conversation, each answered in turn first. */
  earlier?: string[];
  expect: Expect;
}
