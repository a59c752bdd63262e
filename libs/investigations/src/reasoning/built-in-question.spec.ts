import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { BuiltInReasoner } from './built-in-reasoner';
import { names, namesIn } from './built-in-question';
import { recordRun } from '../../../../test/support/scripted-prometheus';
import type { InvestigationSession, RecordedRun, ToolCall } from './reasoner';

describe('the names in a question', () => {
  it('keeps the words that may name something, not common words, numbers or times', () => {
    expect(namesIn("Why is checkout-api slow since 10:05? What's with payments.svc?")).toEqual(['checkout-api', 'payments.svc']);
    expect(namesIn('What happened in the last hour?')).toEqual([]);
  });

  it('matches a label value whole, by a part, or without separators', () => {
    expect(names('checkout', 'checkout-api')).toBe(true);
    expect(names('checkoutapi', 'checkout-api')).toBe(true);
    expect(names('checkout-api', 'checkout-api')).toBe(true);
    expect(names('check', 'checkout-api')).toBe(false);
  });
});

/** A question without an incident, answered from a scripted Prometheus with a `checkout-api` job. */
function questionSession(subject: string): InvestigationSession & { runs: RecordedRun[] } {
  const runs: RecordedRun[] = [];
  const answer = (call: ToolCall): { output: unknown; summary: string } => {
    if (call.tool === 'incidents.in_window')
      return {
        output: [{ id: 'i', title: 'Disk full', status: 'open', openedAt: '', alerts: [{ status: 'firing', labels: { alertname: 'DiskFull' } }] }],
        summary: '1 incident',
      };
    if (call.tool === 'prometheus.label_values') {
      const label = call.arguments.label;
      const values = label === 'job' ? ['checkout-api', 'payments'] : label === '__name__' ? ['app_http_requests_total', 'process_cpu_seconds_total'] : [];
      return { output: { values }, summary: `${values.length} values` };
    }
    // Each signal reads 12.3456789 at 01:10 and 14.0000001 at 01:59 (floats as Prometheus writes them).
    const values = [
      ['2026-11-22T01:10:00.000000Z', '12.3456789'],
      ['2026-11-22T01:59:00.000000Z', '14.0000001'],
    ];
    return { output: { series: [{ metric: {}, values }] }, summary: `read ${String(call.arguments.query)}` };
  };
  return {
    investigationId: '0190a000-0000-7000-8000-000000000001',
    subject,
    window: { from: Timestamp.parse('2026-11-22T01:00:00Z')!, until: Timestamp.parse('2026-11-22T02:00:00Z')! },
    conversation: null,
    incident: null,
    alerts: [],
    sources: [{ integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' }],
    tools: [],
    budgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
    signal: new AbortController().signal,
    runs,
    beginTurn: () => undefined,
    recordUsage: async () => undefined,
    progress: async () => undefined,
    updateHypotheses: async () => undefined,
    noteRollout: async () => null,
    noteCalls: async () => undefined,
    runTool: async (call) => {
      const { output, summary } = answer(call);
      return recordRun(runs, call, output, summary);
    },
  };
}

describe('the built-in reasoner without an incident', () => {
  it("reads the named job's signals from the metrics it has, each finding citing its run, and answers only", async () => {
    const session = questionSession('How is checkout doing?');
    const c = await new BuiltInReasoner().investigate(session);
    expect(c.question).toBeUndefined();
    expect(c.conclusionStatus).toBe('answer_only');
    const queries = session.runs.filter((r) => r.tool === 'prometheus.query_range').map((r) => r.arguments.query);
    expect(queries).toEqual([
      'sum(rate(app_http_requests_total{job="checkout-api"}[5m]))',
      'sum(rate(app_http_requests_total{job="checkout-api", code=~"5.."}[5m]))',
      'sum(rate(process_cpu_seconds_total{job="checkout-api"}[5m]))',
    ]);
    expect(c.findings.map((f) => f.statement)).toEqual([
      expect.stringContaining('DiskFull'),
      // As people write them: three significant digits, the unit, UTC times.
      'job checkout-api, request rate: 13.2 req/s on average from 01:10 UTC to 01:59 UTC, 14 req/s at the end, at most 14 req/s',
      'job checkout-api, error rate: 13.2 errors/s on average from 01:10 UTC to 01:59 UTC, 14 errors/s at the end, at most 14 errors/s',
      'job checkout-api, CPU use: 13.2 cores on average from 01:10 UTC to 01:59 UTC, 14 cores at the end, at most 14 cores',
    ]);
    for (const f of c.findings) expect(f.runRefs.every((n) => session.runs.some((r) => r.ordinal === n))).toBe(true);
    expect(c.limitations.map((l) => l.type)).toEqual(['missing_telemetry']);
    expect(c.limitations[0].statement).toMatch(/latency.*restarts/);
  });

  it('is inconclusive, and says why, when the question asks for a cause', async () => {
    const c = await new BuiltInReasoner().investigate(questionSession('Why is checkout failing?'));
    expect(c.conclusionStatus).toBe('inconclusive');
    expect(c.limitations.some((l) => l.type === 'scope' && /does not test causes/.test(l.statement))).toBe(true);
  });

  it('asks which job, service or alert is meant when the question names nothing the sources know', async () => {
    const session = questionSession('How is paymnts?');
    const c = await new BuiltInReasoner().investigate(session);
    expect(c.question).toMatch(/"paymnts".*Jobs: checkout-api, payments.*Alerts in the window: DiskFull/);
    expect(c.summary).toBe(c.question);
    expect(session.runs.filter((r) => r.tool === 'prometheus.query_range')).toEqual([]);
  });
});
