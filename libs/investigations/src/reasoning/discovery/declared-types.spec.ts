import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { recordRun, sessionOf, source, T } from '../../../../../test/support/scripted-prometheus';
import type { RecordedRun, SessionTool, ToolCall } from '../reasoner';
import { declaredTypesReader } from './declared-types';

const METADATA: SessionTool = { name: 'prometheus.metadata', description: '', integrationType: 'prometheus', argumentsSchema: {} };
const window = { from: Timestamp.parse(T(0))!, until: Timestamp.parse(T(45))! };

/** A session offering the metadata tool (unless `offered` is false), whose metadata reads `answer` gives. */
function session(answer: (call: ToolCall, runs: RecordedRun[]) => RecordedRun, { toolRuns = 24, offered = true } = {}) {
  const s = sessionOf(window, [source], answer, toolRuns);
  return Object.assign(s, { tools: offered ? [METADATA] : [] });
}

const declaring = (call: ToolCall, runs: RecordedRun[]): RecordedRun =>
  recordRun(runs, call, {
    count: 3,
    metrics: [
      { metric: 'jobs_processed', types: ['counter'], help: 'Jobs processed.', unit: null },
      { metric: 'jobs_waiting_total', types: ['gauge'], help: null, unit: null },
      { metric: 'mixed_total', types: ['counter', 'gauge'], help: null, unit: null },
      { metric: 'untyped_total', types: ['unknown'], help: null, unit: null },
    ],
    missing: ['other_total'],
  });

describe('declaredTypesReader', () => {
  it('asks once per investigation for the metrics about to be read, and keeps only the types the targets agree on', async () => {
    const s = session(declaring);
    const names = ['jobs_processed', 'jobs_waiting_total', 'mixed_total', 'untyped_total', 'other_total'];
    const types = await declaredTypesReader(s, source)(names, 6);
    expect(s.runs.map((r) => [r.tool, r.arguments])).toEqual([['prometheus.metadata', { metrics: names }]]);
    expect(types.runs).toEqual([s.runs[0]]);
    expect([...types.types]).toEqual([
      ['jobs_processed', 'counter'],
      ['jobs_waiting_total', 'gauge'],
    ]);
    // A second discovery (another ranking of the same investigation) reads the first one's answer.
    const again = await declaredTypesReader(s, source)(['jobs_processed', 'something_else'], 6);
    expect(s.runs).toHaveLength(1);
    expect(again.types.get('jobs_processed')).toBe('counter');
  });

  it('spends no run when the session does not offer the tool, when it would take a run the caller keeps, or after the source failed', async () => {
    const offeredNot = session(declaring, { offered: false });
    expect((await declaredTypesReader(offeredNot, source)(['jobs_processed'], 0)).types.size).toBe(0);
    expect(offeredNot.runs).toHaveLength(0);

    // 20 runs made, 24 in the budget: the read and 3 kept fit, 4 kept do not.
    const busy = session(declaring);
    for (let i = 0; i < 20; i++) recordRun(busy.runs, { tool: 'prometheus.query', integrationId: 'p', arguments: {}, purpose: '' }, null);
    expect((await declaredTypesReader(busy, source)(['jobs_processed'], 4)).types.size).toBe(0);
    expect(busy.runs).toHaveLength(20);
    expect((await declaredTypesReader(busy, source)(['jobs_processed'], 3)).types.get('jobs_processed')).toBe('counter');
    expect(busy.runs).toHaveLength(21);

    const down = session(declaring);
    const failed = recordRun(down.runs, { tool: 'prometheus.query', integrationId: 'p', arguments: {}, purpose: '' }, null);
    Object.assign(failed, { outcome: 'failed', error: 'Could not reach Prometheus at http://127.0.0.1:9: ECONNREFUSED' });
    expect((await declaredTypesReader(down, source)(['jobs_processed'], 0)).types.size).toBe(0);
    expect(down.runs).toHaveLength(1);
  });

  it('takes a failed read for no types at all, and does not read again', async () => {
    const s = session((call, runs) =>
      Object.assign(recordRun(runs, call, null), { outcome: 'failed' as const, error: 'Relay datacenter does not offer prometheus.metadata' }),
    );
    const read = declaredTypesReader(s, source);
    expect((await read(['jobs_processed'], 0)).types.size).toBe(0);
    expect((await read(['jobs_processed'], 0)).types.size).toBe(0);
    expect(s.runs).toHaveLength(1);
  });
});
