import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { checkNamespace, isoTime, listAll, NAME_PATTERN, NAMESPACE_ARGUMENT, selectorString, withKubernetes } from './kubernetes-api';
import { readWorkload } from './kubernetes-workloads';

export type KubernetesRolloutHistoryArguments = { namespace: string; kind: 'Deployment' | 'StatefulSet' | 'DaemonSet'; name: string };

/** Revisions listed at most, the newest first. */
export const MAX_REVISIONS = 20;
const REVISION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE = 'kubernetes.io/change-cause';

interface Revision {
  revision: number;
  name: string;
  createdAt?: string;
  images: string[];
  replicas?: number;
  readyReplicas?: number;
  changeCause?: string;
  current?: boolean;
}

const imagesOf = (template: V1PodTemplateSpec | undefined) => (template?.spec?.containers ?? []).map((c) => `${c.name}=${c.image}`);

export const kubernetesRolloutHistoryTool: ToolDefinition<KubernetesRolloutHistoryArguments> = {
  name: 'kubernetes.rollout_history',
  integrationType: 'kubernetes',
  description:
    "Lists a workload's rollout history from the Kubernetes API: a Deployment's ReplicaSets, or a StatefulSet's or DaemonSet's ControllerRevisions, " +
    `each with its revision number, creation time (when that rollout began), container images and replicas; the newest ${MAX_REVISIONS}. ` +
    'Use it to see whether a new version rolled out just before the onset, and what changed.',
  argumentsSchema: {
    type: 'object',
    properties: {
      namespace: NAMESPACE_ARGUMENT,
      kind: { type: 'string', enum: ['Deployment', 'StatefulSet', 'DaemonSet'] },
      name: { type: 'string', pattern: NAME_PATTERN, maxLength: 253 },
    },
    required: ['namespace', 'kind', 'name'],
    additionalProperties: false,
  },
  async run(args, context) {
    checkNamespace(context, args.namespace);
    const { namespace } = args;
    return withKubernetes(context, async (session) => {
      const workload = await readWorkload(session, namespace, args.kind, args.name);
      const uid = workload.metadata.uid!;
      const labelSelector = selectorString(workload.selector);
      const owned = (meta: { ownerReferences?: Array<{ uid: string }> } | undefined) => (meta?.ownerReferences ?? []).some((o) => o.uid === uid);
      let revisions: Revision[];
      let more: boolean;
      if (args.kind === 'Deployment') {
        const sets = await listAll((page) => session.apis.apps.listNamespacedReplicaSet({ namespace, labelSelector, ...page }));
        more = sets.more;
        const current = workload.metadata.annotations?.[REVISION];
        revisions = sets.items
          .filter((set) => owned(set.metadata))
          .map((set) => ({
            revision: Number(set.metadata?.annotations?.[REVISION] ?? 0),
            name: set.metadata!.name!,
            createdAt: isoTime(set.metadata?.creationTimestamp),
            images: imagesOf(set.spec?.template),
            replicas: set.status?.replicas ?? 0,
            readyReplicas: set.status?.readyReplicas ?? 0,
            ...(set.metadata?.annotations?.[CHANGE_CAUSE] ? { changeCause: set.metadata.annotations[CHANGE_CAUSE] } : {}),
            ...(current !== undefined && set.metadata?.annotations?.[REVISION] === current ? { current: true } : {}),
          }));
      } else {
        const history = await listAll((page) => session.apis.apps.listNamespacedControllerRevision({ namespace, labelSelector, ...page }));
        more = history.more;
        const object =
          args.kind === 'StatefulSet'
            ? await session.apis.apps.readNamespacedStatefulSet({ namespace, name: args.name })
            : await session.apis.apps.readNamespacedDaemonSet({ namespace, name: args.name });
        const updateRevision = 'updateRevision' in (object.status ?? {}) ? (object.status as { updateRevision?: string }).updateRevision : undefined;
        revisions = history.items
          .filter((revision) => owned(revision.metadata))
          .map((revision) => {
            // A ControllerRevision's data is the pod template it recorded, as a patch of the workload's spec.
            const data = revision.data as { spec?: { template?: V1PodTemplateSpec } } | undefined;
            return {
              revision: revision.revision,
              name: revision.metadata!.name!,
              createdAt: isoTime(revision.metadata?.creationTimestamp),
              images: imagesOf(data?.spec?.template),
              ...(updateRevision === revision.metadata?.name ? { current: true } : {}),
            };
          });
      }
      revisions.sort((a, b) => b.revision - a.revision);
      const kept = revisions.slice(0, MAX_REVISIONS);
      const newest = revisions[0];
      const previous = revisions[1];
      const changed = newest && previous ? newest.images.filter((image) => !previous.images.includes(image)) : [];
      let summary = newest
        ? `${count(revisions.length, 'revision')} of ${args.kind} ${namespace}/${args.name}; the newest, ${newest.revision}, created ${newest.createdAt}${
            changed.length
              ? ` with ${changed.join(', ')} (revision ${previous.revision} had ${previous.images.join(', ')})`
              : previous
                ? ' with the same images as the one before'
                : ''
          }.`
        : `${args.kind} ${namespace}/${args.name} has no recorded revision.`;
      if (more) summary += ' More revisions exist than were read.';
      return {
        outcome: 'succeeded' as const,
        summary,
        output: {
          namespace,
          kind: args.kind,
          name: args.name,
          count: revisions.length,
          revisions: kept,
          ...(kept.length < revisions.length ? { more: revisions.length - kept.length } : {}),
        },
        truncated: false,
        sources: [...session.sources],
      };
    });
  },
};
