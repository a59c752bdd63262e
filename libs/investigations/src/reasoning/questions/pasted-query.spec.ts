import { describe, expect, it } from 'vitest';
import { matchedOnNoLabels, pastedQuery } from './pasted-query';

describe('a PromQL expression pasted into a question', () => {
  it('is the longest whole expression from where one begins, without the words around it', () => {
    expect(pastedQuery('what does time() - rabbitmq_queue_head_message_timestamp{queue="orders"} give now, in seconds')).toEqual({
      expr: 'time() - rabbitmq_queue_head_message_timestamp{queue="orders"}',
      before: 'what does',
      after: 'give now, in seconds',
    });
    expect(pastedQuery('histogram_quantile(0.9, sum by (le) (rate(http_request_duration_seconds_bucket{job="cart"}[5m]))) — value?')?.expr).toBe(
      'histogram_quantile(0.9, sum by (le) (rate(http_request_duration_seconds_bucket{job="cart"}[5m])))',
    );
    expect(pastedQuery('sum(rate(http_requests_total{code="500"}[1m])) pls')?.expr).toBe('sum(rate(http_requests_total{code="500"}[1m]))');
  });

  it('joins no words of a sentence, and takes no alert label set, prose in parentheses or a bare word for one', () => {
    expect(pastedQuery('kube_pod_info{pod="a"} and whats checkout doing')?.expr).toBe('kube_pod_info{pod="a"}');
    expect(pastedQuery('CheckoutHighErrorRate {job="checkout"} fired, which pods?')).toBeNull();
    expect(pastedQuery('what is the p99 of checkout (the one paging) now?')).toBeNull();
    expect(pastedQuery('how near is ordersdb to max_connections?')).toBeNull();
  });

  it('is matched on no labels when its top-level arithmetic has no matching of its own', () => {
    expect(matchedOnNoLabels('sum(a_total) / b_max')).toBe('sum(a_total) / on() b_max');
    expect(matchedOnNoLabels('sum(a_total) / on(job) b_max')).toBeNull();
    expect(matchedOnNoLabels('sum(a_total)')).toBeNull();
  });
});
