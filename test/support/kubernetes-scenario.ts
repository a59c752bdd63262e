import type { KubernetesRule, KubernetesStandIn } from './kubernetes-stand-in';

/** The read-only rules docs/operations.md's ClusterRole grants: what the Kubernetes tools need. */
export const READER_RULES: KubernetesRule[] = [
  { apiGroups: [''], resources: ['pods', 'pods/log', 'events', 'nodes'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets', 'controllerrevisions'], verbs: ['get', 'list', 'watch'] },
];

/** A ServiceAccount bound to `view` only: no pods/log, no nodes, no controllerrevisions (the built-in view role grants neither). */
export const VIEW_ONLY_RULES: KubernetesRule[] = [
  { apiGroups: [''], resources: ['pods', 'events'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'], verbs: ['get', 'list', 'watch'] },
];

const labels = { app: 'checkout' };
const template = (image: string) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image, resources: { requests: { cpu: '500m', memory: '512Mi' } } }] },
});

/**
 * A shop whose checkout rolled out v2 (revision 2) ten minutes before `onset`: one of its pods was
 * OOM-killed (exit 137) and restarted 4 times since, the other runs. A bare debug pod carries the
 * same label but no owner; inventory-db is a StatefulSet with two revisions; both run on node-a.
 */
export function shopCluster(k8s: KubernetesStandIn, onset: Date): void {
  const at = (minutes: number) => new Date(onset.getTime() + minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const deployment = k8s.add({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop', labels, annotations: { 'deployment.kubernetes.io/revision': '2' }, creationTimestamp: at(-600) },
    spec: { replicas: 2, selector: { matchLabels: labels }, template: template('registry.example/checkout:2.0.0') },
  });
  const owner = (kind: string, o: { metadata: { name: string; uid: string } }, apiVersion = 'apps/v1') => [
    { apiVersion, kind, name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: true },
  ];
  const replicaSet = (name: string, revision: string, image: string, created: string, replicas: number) =>
    k8s.add({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name,
        namespace: 'shop',
        labels: { ...labels, 'pod-template-hash': name.split('-')[1] },
        annotations: { 'deployment.kubernetes.io/revision': revision },
        creationTimestamp: created,
        ownerReferences: owner('Deployment', deployment),
      },
      spec: { replicas, selector: { matchLabels: { ...labels, 'pod-template-hash': name.split('-')[1] } }, template: template(image) },
      status: { replicas, readyReplicas: replicas === 0 ? 0 : 1 },
    });
  replicaSet('checkout-7d9f8b', '1', 'registry.example/checkout:1.9.3', at(-600), 0);
  const current = replicaSet('checkout-5b6c4d', '2', 'registry.example/checkout:2.0.0', at(-10), 2);
  const pod = (name: string, status: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    k8s.add({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'shop',
        labels: { ...labels, ...((extra.labels as object) ?? {}) },
        creationTimestamp: at(-9),
        ...((extra.metadata as object) ?? {}),
      },
      spec: {
        nodeName: 'node-a',
        containers: [{ name: 'app', image: 'registry.example/checkout:2.0.0', resources: { requests: { cpu: '500m', memory: '512Mi' } } }],
      },
      status,
    });
  const conditions = (ready: 'True' | 'False') => [
    { type: 'PodScheduled', status: 'True', lastTransitionTime: at(-9) },
    {
      type: 'Ready',
      status: ready,
      lastTransitionTime: at(1),
      ...(ready === 'False' ? { reason: 'ContainersNotReady', message: 'containers with unready status: [app]' } : {}),
    },
  ];
  pod(
    'checkout-5b6c4d-x7k2p',
    {
      phase: 'Running',
      startTime: at(-9),
      conditions: conditions('False'),
      containerStatuses: [
        {
          name: 'app',
          image: 'registry.example/checkout:2.0.0',
          imageID: 'registry.example/checkout@sha256:0a1b',
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=app pod=checkout-5b6c4d-x7k2p_shop' } },
          lastState: { terminated: { reason: 'OOMKilled', exitCode: 137, startedAt: at(2), finishedAt: at(3), containerID: 'containerd://9f' } },
        },
      ],
    },
    { metadata: { ownerReferences: owner('ReplicaSet', current) } },
  );
  pod(
    'checkout-5b6c4d-q9w8e',
    {
      phase: 'Running',
      startTime: at(-9),
      conditions: conditions('True'),
      containerStatuses: [
        {
          name: 'app',
          image: 'registry.example/checkout:2.0.0',
          imageID: 'x',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: at(-9) } },
          lastState: {},
        },
      ],
    },
    { metadata: { ownerReferences: owner('ReplicaSet', current) } },
  );
  // Same label, no owner: not the Deployment's, though `app=checkout` selects it.
  pod('checkout-debug', { phase: 'Succeeded', startTime: at(-30), containerStatuses: [] }, { labels: { tier: 'debug' } });

  const sts = k8s.add({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'inventory-db', namespace: 'shop', labels: { app: 'inventory-db' }, creationTimestamp: at(-900) },
    spec: {
      serviceName: 'inventory-db',
      selector: { matchLabels: { app: 'inventory-db' } },
      template: { metadata: { labels: { app: 'inventory-db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16.4' }] } },
    },
    status: { replicas: 1, currentRevision: 'inventory-db-6f7d', updateRevision: 'inventory-db-6f7d' },
  });
  for (const [name, revision, image, created] of [
    ['inventory-db-5c4b', 1, 'postgres:16.3', at(-900)],
    ['inventory-db-6f7d', 2, 'postgres:16.4', at(-120)],
  ] as const)
    k8s.add({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name, namespace: 'shop', labels: { app: 'inventory-db' }, creationTimestamp: created, ownerReferences: owner('StatefulSet', sts) },
      revision,
      data: { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'inventory-db' } }, spec: { containers: [{ name: 'postgres', image }] } } } },
    });

  k8s.add({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-a', labels: { 'kubernetes.io/hostname': 'node-a' } },
    spec: { taints: [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: at(2) }] },
    status: {
      capacity: { cpu: '4', memory: '16393244Ki', pods: '110' },
      allocatable: { cpu: '3920m', memory: '15241244Ki', pods: '110' },
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'True',
          reason: 'KubeletHasInsufficientMemory',
          message: 'kubelet has insufficient memory available',
          lastTransitionTime: at(2),
          lastHeartbeatTime: at(5),
        },
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastTransitionTime: at(-900),
          lastHeartbeatTime: at(5),
        },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.31.2',
        machineID: 'm',
        systemUUID: 's',
        bootID: 'b',
        kernelVersion: '6.1.0',
        osImage: 'Debian GNU/Linux 12',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeProxyVersion: 'v1.31.2',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  });

  const event = (name: string, involved: { kind: string; name: string; apiVersion: string }, body: Record<string, unknown>) =>
    k8s.add({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'shop', creationTimestamp: body.firstTimestamp as string },
      involvedObject: { ...involved, namespace: 'shop' },
      source: { component: body.reportingComponent as string },
      ...body,
    });
  const podRef = { kind: 'Pod', name: 'checkout-5b6c4d-x7k2p', apiVersion: 'v1' };
  event(
    'checkout.1',
    { kind: 'Deployment', name: 'checkout', apiVersion: 'apps/v1' },
    {
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set checkout-5b6c4d to 2',
      type: 'Normal',
      count: 1,
      firstTimestamp: at(-10),
      lastTimestamp: at(-10),
      reportingComponent: 'deployment-controller',
    },
  );
  event('checkout-5b6c4d-x7k2p.1', podRef, {
    reason: 'BackOff',
    message: 'Back-off restarting failed container app in pod checkout-5b6c4d-x7k2p_shop',
    type: 'Warning',
    count: 9,
    firstTimestamp: at(3),
    lastTimestamp: at(12),
    reportingComponent: 'kubelet',
  });
  event('checkout-5b6c4d-x7k2p.2', podRef, {
    reason: 'Unhealthy',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    type: 'Warning',
    eventTime: `${at(4).slice(0, -1)}.000000Z`,
    series: { count: 14, lastObservedTime: `${at(11).slice(0, -1)}.000000Z` },
    reportingComponent: 'kubelet',
    reportingInstance: 'node-a',
    action: 'Probe',
    firstTimestamp: at(4),
  });
  k8s.setLogs('shop', 'checkout-5b6c4d-x7k2p', {
    app: {
      current: ['starting checkout 2.0.0', 'loading price cache'],
      previous: [...Array.from({ length: 300 }, (_, i) => `loaded price batch ${i}`), 'java.lang.OutOfMemoryError: Java heap space'],
    },
  });
  k8s.setLogs('shop', 'checkout-5b6c4d-q9w8e', { app: { current: ['starting checkout 2.0.0', 'ready'] } });
}
