import type { Rule } from '../../eval/scenarios';
import { shop } from '../../eval/shop';

const MINUTE = 60;

/** checkout's error ratio over one-minute windows, paging once it held for three minutes. */
export const CHECKOUT_ERROR_RULE: Rule = {
  alert: 'CheckoutHighErrorRate',
  expr: 'sum by (namespace, job) (rate(http_requests_total{job="checkout", code=~"5.."}[1m])) / sum by (namespace, job) (rate(http_requests_total{job="checkout"}[1m])) > 0.05',
  forSeconds: 3 * MINUTE,
  labels: { severity: 'critical' },
};

/** The shop (checkout, payments, inventory) up to `end`, whose checkout fails a tenth of its requests from `minutesAgo` minutes before it. */
export function shopWithCheckoutFailing(end: number, seed: number, minutesAgo: number): ReturnType<typeof shop> {
  const c = shop(end, seed, { workloads: ['checkout', 'payments', 'inventory'] });
  const from = c.ago(minutesAgo);
  c.workload('checkout').effects = { errors: (t) => (t >= from ? { '500': 0.11 } : undefined) };
  return c;
}
