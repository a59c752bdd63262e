import { SERVICE_LABELS } from '@svc/incidents';
import type { SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import type { DetectedCause, DetectionScope, Explained, TakeOver } from './explainer';

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
 * services it serves, that one of the alert's labels names (an address or name, as in
 * `instance="ordersdb:5432"` or `peer="ordersdb"`), or that a cause `found` before names as the
 * peer the service's calls slowed or failed on (its client metrics); or, when no datastore names
 * any service, the only one there is (a mapping nobody wrote is not a reason to look away from
 * the only database).
 */
export function datastoresServing(
  sources: readonly SourceBrief[],
  scope: DetectionScope,
  kinds: readonly string[],
  found: readonly DetectedCause[] = [],
): SourceBrief[] {
  const stores = sources.filter((s) => kinds.includes(s.type));
  const services = alertServicesOf(scope);
  const labelValues = Object.entries(scope.labels)
    .filter(([name]) => name !== 'alertname')
    .map(([, value]) => value);
  const serving = stores.filter(
    (s) => (s.services ?? []).some((name) => services.includes(name.toLowerCase())) || namesDatastore(s, labelValues) || peerCauseOf(s, found) !== undefined,
  );
  if (serving.length) return serving;
  return stores.length === 1 && !(stores[0].services ?? []).length ? stores : [];
}

/** The cause found before whose peer (a dependency the alerting service's calls slowed or failed on) is this datastore. */
export function peerCauseOf(source: SourceBrief, found: readonly DetectedCause[]): DetectedCause | undefined {
  return found.find((c) => c.peer !== undefined && namesDatastore(source, [c.peer]));
}

/**
 * A cause read in a datastore, as the explainers return it: when a cause found before is about
 * the calls to that datastore (they slowed or failed), this one continues its chain and takes it
 * over; its calls' mechanism becomes the first step of this one's.
 */
export function continuing(cause: DetectedCause, source: SourceBrief, found: readonly DetectedCause[]): DetectedCause | TakeOver {
  const calls = peerCauseOf(source, found);
  if (!calls) return cause;
  return {
    replaces: calls,
    cause: {
      ...cause,
      peer: calls.peer,
      mechanism: `${calls.mechanism}; ${cause.mechanism}`,
      mechanismRuns: [...new Set([...calls.mechanismRuns, ...cause.mechanismRuns])],
      chainRuns: [...new Set([...calls.chainRuns, ...cause.chainRuns])],
    },
  };
}

/**
 * Asks `causeIn` of each datastore of `kinds` that serves the alert, while the budget leaves a run:
 * the causes found (one or several per datastore), those continuing a dependency's found before
 * taking it over.
 */
export async function eachDatastore(
  ctx: ExplainerContext,
  found: readonly DetectedCause[],
  kinds: readonly string[],
  causeIn: (source: SourceBrief) => Promise<DetectedCause | DetectedCause[] | null>,
): Promise<Explained> {
  const causes: Array<DetectedCause | TakeOver> = [];
  for (const source of datastoresServing(ctx.session.sources, ctx.scope, kinds, found)) {
    if (!ctx.canRead(1)) break;
    const caused = await causeIn(source);
    // The first continues the chain of the calls to this datastore found before; the calls are one cause's step, not several's.
    (caused ? [caused].flat() : []).forEach((cause, i) => causes.push(i === 0 ? continuing(cause, source, found) : cause));
  }
  return causes.length ? causes : null;
}
