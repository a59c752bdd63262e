import { describe, expect, it } from 'vitest';
import { entityOf, entityPattern } from './entity';

describe('entityOf', () => {
  it('takes the service or workload from whichever label names it, and the pods, instances and nodes named', () => {
    expect(entityOf([{ alertname: 'A', namespace: 'shop', destination_workload: 'checkout' }])).toEqual({
      name: 'checkout',
      names: ['checkout'],
      namespace: 'shop',
      pods: [],
      instances: [],
      nodes: [],
    });
    expect(entityOf([{ alertname: 'A', service_name: 'ts-travel-service', instance: '10.0.0.4:8080' }])).toMatchObject({
      name: 'ts-travel-service',
      instances: ['10.0.0.4:8080'],
    });
  });

  it("falls back to the pods' workload, then to a job that is not an exporter's", () => {
    expect(entityOf([{ pod: 'cart-7d9f8c6b5-x2x1q', node: 'n1', job: 'kube-state-metrics' }, { pod: 'cart-7d9f8c6b5-abcde' }])).toMatchObject({
      name: 'cart',
      pods: ['cart-7d9f8c6b5-x2x1q', 'cart-7d9f8c6b5-abcde'],
      nodes: ['n1'],
    });
    expect(entityOf([{ job: 'payments' }])?.name).toBe('payments');
    expect(entityOf([{ job: 'node-exporter', instance: 'x' }])).toBeNull();
  });
});

describe('entityPattern', () => {
  it('matches a value naming the entity, a pod or an instance host between non-alphanumeric characters, case-insensitively', () => {
    expect(entityPattern({ name: 'a.b', names: ['a.b'], pods: ['p-1'], instances: ['10.0.0.1:80'], nodes: [] })).toBe(
      '(?i)(.*[^a-z0-9])?(a\\.b|p-1|10\\.0\\.0\\.1)([^a-z0-9].*)?',
    );
  });
});
