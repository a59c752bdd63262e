import type { V1Pod } from '@kubernetes/client-node';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { isoTime, listAll, NAME_PATTERN, withKubernetes } from './kubernetes-api';

export type KubernetesNodeArguments = { name: string };

/** Pods listed at most (by CPU request, largest first); all are summed. */
export const MAX_NODE_PODS = 50;

const SUFFIXES: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A resource.Quantity (`250m`, `1.5`, `128Mi`, `1e3`) as a number of units (cores, bytes), or undefined when it does not parse. */
export function parseQuantity(quantity: string | undefined): number | undefined {
  const match = quantity === undefined ? null : /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(quantity.trim());
  if (!match) return undefined;
  return Number(match[1]) * SUFFIXES[match[2] ?? ''];
}

/** A pod's requests, as the scheduler counts them: the sum of its containers', or its largest init container's when larger. */
function requestsOf(pod: V1Pod, resource: 'cpu' | 'memory'): number {
  const sum = (pod.spec?.containers ?? []).reduce((total, c) => total + (parseQuantity(c.resources?.requests?.[resource]) ?? 0), 0);
  const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map((c) => parseQuantity(c.resources?.requests?.[resource]) ?? 0));
  return Math.max(sum, init);
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;
const percent = (part: number, whole: number | undefined) => (whole ? Math.round((part / whole) * 1000) / 10 : undefined);

export const kubernetesNodeTool: ToolDefinition<KubernetesNodeArguments> = {
  name: 'kubernetes.node',
  integrationType: 'kubernetes',
  description:
    'Reads a node from the Kubernetes API: its conditions (Ready, MemoryPressure, DiskPressure, PIDPressure, with reasons and transition times), taints, capacity and allocatable, ' +
    `and the CPU and memory requests of the pods scheduled on it against what is allocatable (the ${MAX_NODE_PODS} largest listed). ` +
    'Use it when pods of one node fail together, are evicted, or cannot be scheduled.',
  argumentsSchema: {
    type: 'object',
    properties: { name: { type: 'string', pattern: NAME_PATTERN, maxLength: 253, description: 'The node' } },
    required: ['name'],
    additionalProperties: false,
  },
  async run(args, context) {
    const allowed = context.connection.namespaces;
    return withKubernetes(context, async (session) => {
      const node = await session.apis.core.readNode({ name: args.name });
      const fieldSelector = `spec.nodeName=${args.name}`;
      let pods: V1Pod[] = [];
      let more = false;
      // An integration limited to some namespaces reads the pods of those only, and says so.
      for (const namespace of allowed ?? [undefined]) {
        const page = await listAll((options) =>
          namespace
            ? session.apis.core.listNamespacedPod({ namespace, fieldSelector, ...options })
            : session.apis.core.listPodForAllNamespaces({ fieldSelector, ...options }),
        );
        pods = pods.concat(page.items);
        more ||= page.more;
      }
      const active = pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
      const cpu = active.reduce((sum, p) => sum + requestsOf(p, 'cpu'), 0);
      const memory = active.reduce((sum, p) => sum + requestsOf(p, 'memory'), 0);
      const allocatable = node.status?.allocatable ?? {};
      const allocatableCpu = parseQuantity(allocatable.cpu);
      const allocatableMemory = parseQuantity(allocatable.memory);
      const conditions = (node.status?.conditions ?? []).map((c) => ({
        type: c.type,
        status: c.status,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message.slice(0, 512) } : {}),
        lastTransitionTime: isoTime(c.lastTransitionTime),
      }));
      const ready = conditions.find((c) => c.type === 'Ready');
      const pressures = conditions.filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => c.type);
      const listed = active
        .map((p) => ({
          namespace: p.metadata?.namespace,
          name: p.metadata?.name,
          phase: p.status?.phase,
          cpuRequest: round(requestsOf(p, 'cpu')),
          memoryRequestBytes: requestsOf(p, 'memory'),
        }))
        .sort((a, b) => b.cpuRequest - a.cpuRequest || b.memoryRequestBytes - a.memoryRequestBytes)
        .slice(0, MAX_NODE_PODS);
      const requests = {
        cpu: round(cpu),
        memoryBytes: memory,
        ...(percent(cpu, allocatableCpu) !== undefined ? { cpuPercentOfAllocatable: percent(cpu, allocatableCpu) } : {}),
        ...(percent(memory, allocatableMemory) !== undefined ? { memoryPercentOfAllocatable: percent(memory, allocatableMemory) } : {}),
      };
      let summary =
        `Node ${args.name} is ${ready ? (ready.status === 'True' ? 'Ready' : `not Ready (${ready.reason ?? ready.status})`) : 'of unknown readiness'}` +
        `${pressures.length ? `, under ${pressures.join(', ')}` : ''}${node.spec?.unschedulable ? ', cordoned' : ''}; ` +
        `${count(active.length, 'pod')} request ${requests.cpu} CPU${requests.cpuPercentOfAllocatable !== undefined ? ` (${requests.cpuPercentOfAllocatable}% of allocatable)` : ''} and ` +
        `${round(memory / 2 ** 30, 2)} GiB${requests.memoryPercentOfAllocatable !== undefined ? ` (${requests.memoryPercentOfAllocatable}%)` : ''}.`;
      if (allowed) summary += ` Only the pods of namespaces ${allowed.join(', ')} are counted.`;
      if (more) summary += ' More pods exist than were read.';
      return {
        outcome: 'succeeded' as const,
        summary,
        output: {
          name: args.name,
          unschedulable: node.spec?.unschedulable === true,
          taints: (node.spec?.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })),
          kubeletVersion: node.status?.nodeInfo?.kubeletVersion,
          conditions,
          capacity: node.status?.capacity ?? {},
          allocatable,
          requests,
          podCount: active.length,
          pods: listed,
          ...(listed.length < active.length ? { more: active.length - listed.length } : {}),
          ...(allowed ? { namespaces: allowed } : {}),
        },
        truncated: false,
        sources: [...session.sources],
      };
    });
  },
};
