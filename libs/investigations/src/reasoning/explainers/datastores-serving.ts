import { SERVICE_LABELS } from '@svc/incidents';
import type { SourceBrief } from '../reasoner';
import type { DetectionScope } from './explainer';

/** The services the alert names (service, app, job, … labels), lower case. */
export function alertServicesOf(scope: DetectionScope): string[] {
  const named = SERVICE_LABELS.map((name) => scope.labels[name]).filter((v): v is string => Boolean(v));
  return [...new Set([...named, ...(scope.workload ? [scope.workload] : [])].map((s) => s.toLowerCase()))];
}

/**
 * Whether one of `values` (label values) names the datastore: its integration's name, one of its
 * addresses (`host` or `host:port`), or the first label of its host name (`ordersdb` for
 * `ordersdb.shop.svc`), case-insensitive.
 */
export function namesDatastore(source: Pick<SourceBrief, 'name' | 'addresses'>, values: readonly string[]): boolean {
  const names = new Set([source.name.toLowerCase()]);
  for (const address of source.addresses ?? []) {
    const lower = address.toLowerCase();
    names.add(lower);
    const host = lower.replace(/:\d+$/, '');
    // A short host name as Kubernetes services are called; an IP address has none.
    if (!/^[\d.]+$/.test(host) && host.includes('.')) names.add(host.split('.')[0]);
  }
  return values.some((v) => names.has(v.toLowerCase()));
}

/**
 * The datastores that serve the alerting service: those whose integration names it among the
 * services it serves, or that one of the alert's labels names (an address or name, as in
 * `instance="ordersdb:5432"` or `peer="ordersdb"`); or, when no datastore names any service, the
 * only one there is (a mapping nobody wrote is not a reason to look away from the only database).
 */
export function datastoresServing(sources: readonly SourceBrief[], scope: DetectionScope, kinds: readonly string[]): SourceBrief[] {
  const stores = sources.filter((s) => kinds.includes(s.type));
  const services = alertServicesOf(scope);
  const labelValues = Object.entries(scope.labels)
    .filter(([name]) => name !== 'alertname')
    .map(([, value]) => value);
  const serving = stores.filter((s) => (s.services ?? []).some((name) => services.includes(name.toLowerCase())) || namesDatastore(s, labelValues));
  if (serving.length) return serving;
  return stores.length === 1 && !(stores[0].services ?? []).length ? stores : [];
}
