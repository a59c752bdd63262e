import type { CoreV1Event, EventsV1Event, V1ObjectMeta } from '@kubernetes/client-node';
import { isKubernetesApiException } from '@svc/platform';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { apiErrorMessage, checkNamespace, isoTime, KubernetesSession, listAll, NAME_PATTERN, NAMESPACE_ARGUMENT, withKubernetes } from './kubernetes-api';
import { readWorkload, WORKLOAD_KINDS, WorkloadKind } from './kubernetes-workloads';

const OBJECT_KINDS = ['Pod', ...WORKLOAD_KINDS] as const;
type ObjectKind = (typeof OBJECT_KINDS)[number];

export type KubernetesEventsArguments = { namespace: string; kind: ObjectKind; name: string; owners?: boolean };

/** Events listed at most, the most recent first. */
export const MAX_EVENTS = 100;
/** Owners followed up from the object at most (a Pod's ReplicaSet, then its Deployment). */
const MAX_OWNER_DEPTH = 2;
const MAX_TEXT = 512;

interface Involved {
  kind: string;
  name: string;
}

/** An event of either API, as the run states it. */
interface EventView {
  uid: string;
  type?: string;
  reason?: string;
  message?: string;
  object: string;
  count: number;
  firstTime?: string;
  lastTime?: string;
  series?: { count: number; lastObservedTime?: string };
  reportingController?: string;
  api: string[];
}

/** The object and its controlling owners, up the chain (Pod → ReplicaSet → Deployment). */
async function objectAndOwners(session: KubernetesSession, namespace: string, kind: ObjectKind, name: string, owners: boolean): Promise<Involved[]> {
  const chain: Involved[] = [{ kind, name }];
  if (!owners) return chain;
  let meta: V1ObjectMeta | undefined;
  try {
    meta =
      kind === 'Pod'
        ? (await session.apis.core.readNamespacedPod({ namespace, name })).metadata
        : (await readWorkload(session, namespace, kind, name)).metadata;
  } catch (error) {
    // A deleted object's events outlive it (for the events' TTL): they are what is left to read.
    if (isKubernetesApiException(error) && error.code === 404) return chain;
    throw error;
  }
  for (let depth = 0; depth < MAX_OWNER_DEPTH && meta; depth++) {
    const owner = meta.ownerReferences?.find((o) => o.controller);
    if (!owner) break;
    chain.push({ kind: owner.kind, name: owner.name });
    meta = (WORKLOAD_KINDS as readonly string[]).includes(owner.kind)
      ? (await readWorkload(session, namespace, owner.kind as WorkloadKind, owner.name)).metadata
      : undefined;
  }
  return chain;
}

const cut = (text: string | undefined) => (text && text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

function fromCore(event: CoreV1Event): EventView {
  return {
    uid: event.metadata.uid ?? `${event.metadata.name}`,
    type: event.type,
    reason: event.reason,
    message: cut(event.message),
    object: `${event.involvedObject.kind}/${event.involvedObject.name}`,
    count: event.series?.count ?? event.count ?? 1,
    firstTime: isoTime(event.firstTimestamp) ?? isoTime(event.eventTime) ?? isoTime(event.metadata.creationTimestamp),
    lastTime: isoTime(event.series?.lastObservedTime) ?? isoTime(event.lastTimestamp) ?? isoTime(event.eventTime),
    ...(event.series ? { series: { count: event.series.count ?? 0, lastObservedTime: isoTime(event.series.lastObservedTime) } } : {}),
    reportingController: event.reportingComponent || event.source?.component,
    api: ['v1'],
  };
}

function fromEventsApi(event: EventsV1Event): EventView {
  return {
    uid: event.metadata?.uid ?? `${event.metadata?.name}`,
    type: event.type,
    reason: event.reason,
    message: cut(event.note),
    object: `${event.regarding?.kind}/${event.regarding?.name}`,
    count: event.series?.count ?? event.deprecatedCount ?? 1,
    firstTime: isoTime(event.deprecatedFirstTimestamp) ?? isoTime(event.eventTime) ?? isoTime(event.metadata?.creationTimestamp),
    lastTime: isoTime(event.series?.lastObservedTime) ?? isoTime(event.deprecatedLastTimestamp) ?? isoTime(event.eventTime),
    ...(event.series ? { series: { count: event.series.count, lastObservedTime: isoTime(event.series.lastObservedTime) } } : {}),
    reportingController: event.reportingController || event.deprecatedSource?.component,
    api: ['events.k8s.io/v1'],
  };
}

export const kubernetesEventsTool: ToolDefinition<KubernetesEventsArguments> = {
  name: 'kubernetes.events',
  integrationType: 'kubernetes',
  description:
    'Lists the Kubernetes events of an object and of its owners (a Pod, its ReplicaSet and Deployment), from both core/v1 and events.k8s.io/v1: type, reason ' +
    '(BackOff, OOMKilling, Unhealthy with the probe failure, FailedScheduling, Failed image pulls, Evicted, ScalingReplicaSet…), message, count, first and last times and series. ' +
    `The most recent ${MAX_EVENTS}. Events expire after about an hour on most clusters.`,
  argumentsSchema: {
    type: 'object',
    properties: {
      namespace: NAMESPACE_ARGUMENT,
      kind: { type: 'string', enum: [...OBJECT_KINDS], description: 'The kind of the object' },
      name: { type: 'string', pattern: NAME_PATTERN, maxLength: 253, description: 'Its name' },
      owners: { type: 'boolean', description: "Also the events of the object's controlling owners, up to two levels (default true)" },
    },
    required: ['namespace', 'kind', 'name'],
    additionalProperties: false,
  },
  async run(args, context) {
    checkNamespace(context, args.namespace);
    const { namespace } = args;
    return withKubernetes(context, async (session) => {
      const chain = await objectAndOwners(session, namespace, args.kind, args.name, args.owners !== false);
      const events = new Map<string, EventView>();
      const notes: string[] = [];
      let more = false;
      const add = (view: EventView) => {
        const known = events.get(view.uid);
        if (!known) events.set(view.uid, view);
        else known.api = [...new Set([...known.api, ...view.api])];
      };
      for (const involved of chain) {
        const core = await listAll((page) =>
          session.apis.core.listNamespacedEvent({
            namespace,
            fieldSelector: `involvedObject.kind=${involved.kind},involvedObject.name=${involved.name}`,
            ...page,
          }),
        );
        core.items.forEach((e) => add(fromCore(e)));
        more ||= core.more;
        try {
          const modern = await listAll((page) =>
            session.apis.events.listNamespacedEvent({ namespace, fieldSelector: `regarding.kind=${involved.kind},regarding.name=${involved.name}`, ...page }),
          );
          modern.items.forEach((e) => add(fromEventsApi(e)));
          more ||= modern.more;
        } catch (error) {
          // A cluster without events.k8s.io/v1 (before 1.19), or an account that may not read it: core/v1's events still stand.
          if (!isKubernetesApiException(error) || (error.code !== 404 && error.code !== 403)) throw error;
          const note = apiErrorMessage(error, session.sources[session.sources.length - 1]);
          if (!notes.includes(note)) notes.push(note);
        }
      }
      const sorted = [...events.values()].sort((a, b) => String(b.lastTime ?? '').localeCompare(String(a.lastTime ?? '')));
      const kept = sorted.slice(0, MAX_EVENTS);
      const warnings = sorted.filter((e) => e.type === 'Warning');
      const reasons = [...new Set(warnings.map((e) => e.reason))].slice(0, 5);
      const of = chain.map((c) => `${c.kind} ${c.name}`).join(', ');
      let summary = sorted.length
        ? `${count(sorted.length, 'event')} of ${of} in ${namespace}, ${count(warnings.length, 'warning')}${reasons.length ? ` (${reasons.join(', ')})` : ''}; the latest at ${sorted[0].lastTime}: ${sorted[0].reason}.`
        : `No event of ${of} in ${namespace} (events expire after about an hour).`;
      if (kept.length < sorted.length) summary += ` The ${kept.length} most recent are listed.`;
      if (more) summary += ' More events exist than were read.';
      return {
        outcome: 'succeeded' as const,
        summary,
        output: {
          namespace,
          objects: chain,
          count: sorted.length,
          events: kept.map(({ uid: _uid, ...event }) => event),
          ...(kept.length < sorted.length ? { more: sorted.length - kept.length } : {}),
          ...(notes.length ? { notes } : {}),
        },
        truncated: false,
        sources: [...session.sources],
      };
    });
  },
};
