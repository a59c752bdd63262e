import { describe, expect, it } from 'vitest';
import { splitThreshold } from './threshold';

describe('splitThreshold', () => {
  it('splits a query compared with a number into the symptom, the comparison and the threshold', () => {
    expect(splitThreshold('sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m])) > 0.05')).toEqual({
      symptom: 'sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))',
      comparison: '>',
      value: 0.05,
    });
    expect(splitThreshold('up{job="checkout"} == 0')).toEqual({ symptom: 'up{job="checkout"}', comparison: '==', value: 0 });
    expect(splitThreshold('histogram_quantile(0.99, sum by (le) (rate(latency_bucket[5m]))) >= 1.5e-1')).toMatchObject({ comparison: '>=', value: 0.15 });
    expect(splitThreshold('rate(x[1m]) > bool 3')).toEqual({ symptom: 'rate(x[1m])', comparison: '>', value: 3 });
  });

  it('reads a threshold written first, the comparison turned round', () => {
    expect(splitThreshold('10 < avg(node_load1)')).toEqual({ symptom: 'avg(node_load1)', comparison: '>', value: 10 });
  });

  it('ignores comparisons inside parentheses, label matchers and strings', () => {
    expect(splitThreshold('count(rate(x[5m]) > 1) > 3')).toEqual({ symptom: 'count(rate(x[5m]) > 1)', comparison: '>', value: 3 });
    expect(splitThreshold('label_replace(up, "a", ">", "b", ".*") < 1')).toMatchObject({ comparison: '<', value: 1 });
  });

  it('does not split what has no single threshold', () => {
    expect(splitThreshold('rate(a[5m]) > 1 and rate(b[5m]) > 2')).toBeNull();
    expect(splitThreshold('rate(a[5m]) > 1 unless on(job) maintenance')).toBeNull();
    expect(splitThreshold('rate(a[5m]) > rate(b[5m])')).toBeNull();
    expect(splitThreshold('absent(up{job="x"})')).toBeNull();
    expect(splitThreshold('1 > 0')).toBeNull();
    expect(splitThreshold('')).toBeNull();
  });
});
