import { describe, expect, it } from 'vitest';
import type { RecordedRun } from './reasoner';
import { statedNumbers, unshownNumbers } from './stated-numbers';

const run = (output: unknown, outcome: RecordedRun['outcome'] = 'succeeded'): RecordedRun =>
  ({
    ordinal: 1,
    tool: 'prometheus.query_range',
    integrationId: null,
    arguments: {},
    outcome,
    summary: '',
    output,
    truncated: false,
    error: null,
  }) as RecordedRun;

const errors = run({
  series: [
    {
      metric: { job: 'checkout' },
      values: [
        ['2026-11-27T05:00:00Z', '0.0008'],
        ['2026-11-27T05:30:00Z', '0.077'],
        ['2026-11-27T05:31:00Z', '0.0771'],
      ],
    },
  ],
});

describe('statedNumbers', () => {
  it('reads measured numbers with their units, and leaves counts, times, dates, versions and ordinals out', () => {
    const text = 'At 05:01 UTC on 2026-11-27, 3 pods of checkout 2.15.0 failed 7.7% of requests at 41.2 req/s, p99 1.95 s, 412 ms, 0.3 cores, 768 MiB [#12].';
    expect(statedNumbers(text).map((n) => n.text)).toEqual(['7.7%', '41.2 req/s', '1.95 s', '412 ms', '0.3 cores', '768 MiB']);
    expect(statedNumbers('the ratio was 0.077').map((n) => n.text)).toEqual(['0.077']);
    expect(statedNumbers('a new build 0.6 min before the condition, 12 min before the first alert, 1.5 hours in')).toEqual([]);
  });
});

describe('unshownNumbers', () => {
  it('accepts a number in the query a cited run ran, as a threshold quoted back', () => {
    const rule = { ...errors, arguments: { query: 'sum(rate(errors[5m])) / sum(rate(requests[5m])) > 0.05' } } as RecordedRun;
    expect(unshownNumbers('the alert fires above 0.05, and 5%', [rule])).toEqual([]);
  });

  it('accepts a number a cited run shows, rounded or in another unit, and a mean within a series', () => {
    expect(unshownNumbers('errors rose from 0.08% to 7.7%', [errors])).toEqual([]);
    expect(unshownNumbers('a mean of 3.9%', [errors])).toEqual([]);
  });

  it('names the numbers no cited run shows, and counts no failed run', () => {
    expect(unshownNumbers('errors rose to 12% at 41.2 req/s', [errors])).toEqual(['12%', '41.2 req/s']);
    // The digits of a sample's time are no measurement.
    expect(unshownNumbers('errors rose to 27%', [errors])).toEqual(['27%']);
    expect(unshownNumbers('errors rose to 7.7%', [run(errors.output, 'failed')])).toEqual(['7.7%']);
    expect(unshownNumbers('errors rose to 7.7%', [])).toEqual(['7.7%']);
  });
});
