import type { V1LabelSelector, V1ObjectMeta, V1Pod } from '@kubernetes/client-node';
import { ToolFailure } from '../tool-failure';
import { KubernetesSession, listAll, selectorString } from './kubernetes-api';

/** The workload kinds a tool may name, and what owns their pods. */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export interface Workload {
  kind: WorkloadKind;
  metadata: V1ObjectMeta;
  selector: V1LabelSelector;
}

/** Reads a workload (apps/v1) by kind and name. */
export async function readWorkload(session: KubernetesSession, namespace: string, kind: WorkloadKind, name: string): Promise<Workload> {
  const { apps } = session.apis;
  const object =
    kind === 'Deployment'
      ? await apps.readNamespacedDeployment({ namespace, name })
      : kind === 'StatefulSet'
        ? await apps.readNamespacedStatefulSet({ namespace, name })
        : kind === 'DaemonSet'
          ? await apps.readNamespacedDaemonSet({ namespace, name })
          : await apps.readNamespacedReplicaSet({ namespace, name });
  if (!object.spec?.selector || !object.metadata?.uid) throw new ToolFailure(`${kind} ${namespace}/${name} has no selector`, [...session.sources]);
  return { kind, metadata: object.metadata, selector: object.spec.selector };
}

const ownedBy = (meta: V1ObjectMeta | undefined, uids: Set<string>) => (meta?.ownerReferences ?? []).some((owner) => uids.has(owner.uid));

/**
 * A workload's pods: those its selector matches that it owns (through its ReplicaSets for a
 * Deployment), as the controllers themselves count them: another workload's pods with the same
 * labels are not its. Lists are paged; `more` says some were left unread.
 */
export async function workloadPods(session: KubernetesSession, namespace: string, workload: Workload): Promise<{ pods: V1Pod[]; more: boolean }> {
  const labelSelector = selectorString(workload.selector);
  let owners = new Set([workload.metadata.uid!]);
  let more = false;
  if (workload.kind === 'Deployment') {
    const sets = await listAll((page) => session.apis.apps.listNamespacedReplicaSet({ namespace, labelSelector, ...page }));
    owners = new Set(sets.items.filter((set) => ownedBy(set.metadata, owners)).map((set) => set.metadata!.uid!));
    more = sets.more;
  }
  const pods = await listAll((page) => session.apis.core.listNamespacedPod({ namespace, labelSelector, ...page }));
  return { pods: pods.items.filter((pod) => ownedBy(pod.metadata, owners)), more: more || pods.more };
}
