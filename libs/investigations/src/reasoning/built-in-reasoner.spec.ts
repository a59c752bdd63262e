import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { BuiltInReasoner, saturationStart } from './built-in-reasoner';
import type { InvestigationSession, RecordedRun, ToolCall } from './reasoner';

const at = (i: number): string => new Date(Date.UTC(2026, 10, 22, 2, 0, i * 15)).toISOString();
const series = (values: number[]) => ({ metric: { job: 'api' }, values: values.map((v, i) => [at(i), String(v)] as [string, unknown]) });

describe('saturationStart', () => {
  it('finds the first sample of a jump to several times the usual CPU', () => {
    expect(saturationStart(series([0.1, 0.12, 0.1, 0.11, 0.1, 0.1, 0.1, 0.9, 0.95, 1]))?.toISOString()).toBe('2026-11-22T02:01:45.000000Z');
  });

  it('ignores a busy but steady process and small relative jumps', () => {
    expect(saturationStart(series([1.5, 1.6, 1.5, 1.4, 1.6, 1.5, 1.7, 1.6, 1.5, 1.6]))).toBeNull();
    expect(saturationStart(series([0.01, 0.01, 0.01, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4]))).toBeNull();
  });

  it('needs enough points and skips values that are not numbers', () => {
    expect(saturationStart(series([0.1, 0.1, 2]))).toBeNull();
    expect(saturationStart(series([0.1, 0.1, 0.1, 0.1, Number.NaN, 0.1, 0.1, 0.1, 0.8]))?.toISOString()).toBe('2026-11-22T02:02:00.000000Z');
  });
});

const T = (minute: number, second = 0): string => new Date(Date.UTC(2026, 10, 22, 2, minute, second)).toISOString();
const points = (from: number, to: number): Array<[string, string]> => Array.from({ length: to - from + 1 }, (_, i) => [T(from + i), '1']);

/**
 * A session whose Prometheus answers from a script: `builds` are the build_info series, the
 * rule's expression holds from minute 30. Budgets are generous; runs are numbered as recorded.
 */
function scriptedSession(builds: Array<{ metric: Record<string, string>; values: Array<[string, string]> }>): InvestigationSession & { runs: RecordedRun[] } {
  const runs: RecordedRun[] = [];
  const answer = (call: ToolCall): unknown => {
    const query = String(call.arguments.query ?? '');
    if (call.tool === 'prometheus.alert_rules') return { rules: [{ name: 'HighErrorRate', query: 'rate(errors_total[1m]) > 1' }] };
    if (query.startsWith('rate(errors_total')) return { stepSeconds: 60, series: [{ metric: { job: 'api' }, values: points(30, 40) }] };
    if (query.includes('_build_info')) return { stepSeconds: 60, series: builds };
    return { stepSeconds: 60, series: [] };
  };
  return {
    investigationId: '0190a000-0000-7000-8000-000000000001',
    subject: 'What caused it?',
    window: { from: Timestamp.parse(T(0))!, until: Timestamp.parse(T(45))! },
    conversation: null,
    incident: { id: 'i', title: 'HighErrorRate', status: 'open', labels: { alertname: 'HighErrorRate' }, openedAt: Timestamp.parse(T(30))!, resolvedAt: null },
    alerts: [
      {
        fingerprint: 'f',
        status: 'firing',
        labels: { alertname: 'HighErrorRate', job: 'api' },
        annotations: {},
        startsAt: Timestamp.parse(T(30))!,
        endsAt: null,
        generatorUrl: null,
      },
    ],
    sources: [{ integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' }],
    tools: [],
    budgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
    signal: new AbortController().signal,
    runs,
    beginTurn: () => undefined,
    recordUsage: () => undefined,
    progress: async () => undefined,
    updateHypotheses: async () => undefined,
    runTool: async (call) => {
      const run: RecordedRun = {
        ordinal: runs.length + 1,
        tool: call.tool,
        integrationId: call.integrationId,
        arguments: call.arguments,
        purpose: call.purpose,
        hypothesisId: call.hypothesisId ?? null,
        outcome: 'succeeded',
        summary: '',
        output: call.tool === 'incident.alert_events' ? [] : answer(call),
        truncated: false,
        error: null,
        window: null,
      };
      runs.push(run);
      return run;
    },
  };
}

describe('BuiltInReasoner', () => {
  it('names a new version that replaced an older one just before the onset as the verified cause', async () => {
    const session = scriptedSession([
      { metric: { __name__: 'app_build_info', job: 'api', version: '1.0' }, values: points(15, 27) },
      { metric: { __name__: 'app_build_info', job: 'api', version: '1.1' }, values: points(28, 45) },
    ]);
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toContain('version="1.1"');
  });

  it('does not take the start of the data (a build series with no predecessor) for a deployment', async () => {
    const session = scriptedSession([{ metric: { __name__: 'app_build_info', job: 'api', version: '1.1' }, values: points(28, 45) }]);
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('inconclusive');
    expect(conclusion.findings.some((f) => f.kind === 'cause')).toBe(false);
    expect(conclusion.hypotheses).toEqual([]);
  });
});
