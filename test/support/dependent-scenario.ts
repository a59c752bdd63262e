import type { Rule, Scenario } from '../../eval/scenarios';
import { shop, WORKLOADS } from '../../eval/shop';

const MINUTE = 60;

/** cart's failure ratio, as the generator's default convention exports it. */
const rule: Rule = {
  alert: 'CartErrors',
  expr: 'sum by (namespace, job) (rate(http_requests_total{job="cart", code=~"5.."}[1m])) / sum by (namespace, job) (rate(http_requests_total{job="cart"}[1m])) > 0.05',
  forSeconds: 3 * MINUTE,
  labels: { severity: 'critical' },
};

/**
 * From 30 minutes before the end, the Redis that keeps cart's sessions rejects connections (its
 * exporter's `redis_rejected_connections_total`, in the shop's namespace); cart fails a third of
 * its requests from a minute later, and frontend, which calls cart, fails nearly all of its own.
 * No series pairs cart with the Redis (cart's client metrics are off), so only a read of the whole
 * namespace finds it; there, frontend's failures are stronger than the Redis's change, and they
 * are a consequence: frontend waits on cart.
 */
export const dependentScenario: Scenario = {
  name: 'cart-sessions-redis-rejects',
  family: 'dependency-down',
  story: 'The Redis behind cart rejects connections; cart fails, and frontend, which calls cart, fails more.',
  redHerrings: [],
  seed: 161,
  build(end) {
    let at = Infinity;
    const c = shop(end, this.seed, {
      workloads: ['frontend', 'cart'],
      specs: { cart: { ...WORKLOADS.cart, peers: [] } },
      effects: {
        cart: { errors: (t) => (t >= at + MINUTE ? { '503': 0.33 } : undefined) },
        frontend: {
          errors: (t) => (t >= at + MINUTE ? { '500': 0.95 } : undefined),
          peerErrors: (t, _pod, peer) => (peer === 'cart' && t >= at + MINUTE ? { '503': 0.33 } : undefined),
        },
      },
    });
    at = c.ago(30);
    c.telemetry.counter(
      'redis_rejected_connections_total',
      { job: 'sessions-redis-exporter', instance: '10.2.3.50:9121', namespace: 'shop', service: 'sessions-redis' },
      (t) => (t >= at ? 40 : 0.01) * (1 + 0.1 * c.noise('rejected', t)),
      { initial: 15 },
    );
    return c;
  },
  rule,
  truth: { values: [['sessions-redis']], series: /redis_rejected_connections_total/ },
};
