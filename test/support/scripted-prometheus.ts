import { Timestamp } from '@svc/platform';
import type { InvestigationSession, RecordedRun, SourceBrief, ToolCall } from '@svc/investigations';

/** A minute of the scripted window (02:00 to 02:45 on 2026-11-22), as Prometheus writes times. */
export const T = (minute: number): string => new Date(Date.UTC(2026, 10, 22, 2, minute, 0)).toISOString();

/** One value a minute from `from` to `to`: `usual` before `change`, `then` from it. */
export const level = (from: number, to: number, change: number, usual: number, then: number): Array<[string, string]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [T(from + i), String(from + i < change ? usual : then)]);

export type Series = { metric: Record<string, string>; values: Array<[string, string]> };

/** The Prometheus source the scripted session reads. */
export const source: SourceBrief = { integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' };

/** The onset the explainers are told of: 02:30. */
export const onset = Timestamp.parse(T(30))!;

/**
 * A session whose Prometheus answers range queries from a script: `answer(query)` gives the series
 * (none when it returns undefined), with the range's start and a one-minute step as Prometheus'
 * tool reports them. The metric names it lists are `collected` (without them, the list cannot be
 * read). The window is 02:00 to 02:45; the onset is at 02:30.
 */
export function scripted(
  answer: (query: string) => Series[] | undefined,
  toolRuns = 40,
  { collected }: { collected?: string[] } = {},
): InvestigationSession & { runs: RecordedRun[] } {
  const window = { from: Timestamp.parse(T(0))!, until: Timestamp.parse(T(45))! };
  return sessionOf(
    window,
    [source],
    (call, runs) => {
      if (call.tool !== 'prometheus.label_values')
        return recordRun(runs, call, { start: call.arguments.start, stepSeconds: 60, series: answer(String(call.arguments.query ?? '')) ?? [] });
      // Which metrics are collected: those named, or, when none are, the read fails (then every metric counts as collected).
      if (!collected) return Object.assign(recordRun(runs, call, null), { outcome: 'failed' as const, error: 'Prometheus did not answer' });
      return recordRun(runs, call, { label: call.arguments.label, values: collected });
    },
    toolRuns,
  );
}

/**
 * An investigation session over `sources` and `window` whose tool runs `answer` makes (recording
 * each in `runs`, see recordRun), with `toolRuns` runs to spend; nothing else it is told of is kept.
 */
export function sessionOf(
  window: { from: Timestamp; until: Timestamp },
  sources: SourceBrief[],
  answer: (call: ToolCall, runs: RecordedRun[]) => RecordedRun | Promise<RecordedRun>,
  toolRuns = 40,
): InvestigationSession & { runs: RecordedRun[] } {
  const runs: RecordedRun[] = [];
  return {
    investigationId: '0190a000-0000-7000-8000-000000000002',
    subject: 'What caused it?',
    window,
    conversation: null,
    incident: null,
    alerts: [],
    sources,
    tools: [],
    budgets: { toolRuns, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
    signal: new AbortController().signal,
    runs,
    beginTurn: () => undefined,
    recordUsage: async () => undefined,
    progress: async () => undefined,
    updateHypotheses: async () => undefined,
    noteRollout: async () => null,
    noteCalls: async () => undefined,
    runTool: async (call) => answer(call, runs),
  };
}

/** Records a successful run of `call` with `output` as the next of `runs`, as a session's tool catalog would. */
export function recordRun(runs: RecordedRun[], call: ToolCall, output: unknown, summary = ''): RecordedRun {
  const run: RecordedRun = {
    ordinal: runs.length + 1,
    tool: call.tool,
    integrationId: call.integrationId,
    arguments: call.arguments,
    purpose: call.purpose,
    hypothesisId: call.hypothesisId ?? null,
    outcome: 'succeeded',
    summary,
    output,
    truncated: false,
    error: null,
    window: null,
  };
  runs.push(run);
  return run;
}
