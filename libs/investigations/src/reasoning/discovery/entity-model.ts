/**
 * What the telemetry of any cluster is about, whatever its exporters call things: workloads (from
 * their pods: the owner chain kube-state-metrics lists, else the ReplicaSet-hash pattern of the pod
 * name), the nodes they run on, and the services that labels of any convention name. The labels of
 * a scrape target (`job` and `service` of the kubelet, cAdvisor, node-exporter, kube-state-metrics,
 * blackbox, a cloud exporter, a collector) name the exporter, never the application: a series that
 * carries both a pod and such a label is about the pod's workload. Discovery, ranking, the
 * explainers and the question engine read entities through this module.
 */

/**
 * Names of exporters and agents that scrape or describe other things: their `job` (or the
 * `service` kube-prometheus' ServiceMonitors label them with) is never the application's.
 */
const EXPORTER_NAMES =
  /^(kube-state-metrics|kubelet|cadvisor|node-exporter|prometheus-node-exporter|node|blackbox(-exporter)?|apiserver|kube-apiserver|kubernetes|kubernetes-nodes|kubernetes-cadvisor|kubernetes-pods|kubernetes-service-endpoints|coredns|kube-dns|kube-proxy|kube-scheduler|kube-controller-manager|etcd|cloudwatch|yace|yet-another-cloudwatch-exporter|cloudwatch-exporter|stackdriver(-exporter)?|azure-metrics-exporter|azure-monitor|prometheus|alertmanager|pushgateway|otel-collector|opentelemetry-collector|otelcol|grafana-agent|alloy|vmagent|statsd-exporter|federate|federation)$/i;

/** A scrape job as the Prometheus Operator names it (`serviceMonitor/monitoring/kubelet/1`), or `<namespace>/<name>`: its name. */
function targetName(value: string): string {
  const operator = /^(serviceMonitor|podMonitor|probe|scrapeConfig)\/[^/]+\/([^/]+)(\/\d+)?$/.exec(value);
  if (operator) return operator[2];
  return value.includes('/') ? value.split('/').pop()! : value;
}

/** Whether a `job` or `service` value names an exporter or collector rather than an application. */
export function isExporterTarget(value: string | undefined): boolean {
  if (!value) return false;
  return EXPORTER_NAMES.test(targetName(value));
}

/** Jobs of the exporters that describe Kubernetes itself (kept for the callers that test a job alone). */
export const EXPORTER_JOBS = { test: (value: string): boolean => isExporterTarget(value) };

/** The Deployment (or StatefulSet, DaemonSet, Job) a pod belongs to, from its name: `<deployment>-<hash>-<hash>`, `<statefulset>-<n>`, `<daemonset>-<hash>`. */
export function workloadOfPod(pod: string): string {
  return /^(.+)-[a-z0-9]{6,10}-[a-z0-9]{5}$/.exec(pod)?.[1] ?? /^(.+)-\d+$/.exec(pod)?.[1] ?? pod;
}

/**
 * PromQL that adds a `workload` label to every series of `expr` that has a pod, derived from the
 * pod's name as workloadOfPod derives it (a bare pod keeps its name), so that reads aggregate a
 * workload's pods in Prometheus instead of returning a series per pod.
 */
export function withWorkload(expr: string): string {
  const bare = `label_replace(${expr}, "workload", "$1", "pod", "(.+)")`;
  const stateful = `label_replace(${bare}, "workload", "$1", "pod", "(.+)-[0-9]+")`;
  return `label_replace(${stateful}, "workload", "$1", "pod", "(.+)-[a-z0-9]{6,10}-[a-z0-9]{5}")`;
}

/**
 * Labels that name a service or workload on a series, in the order they are trusted: Kubernetes'
 * workloads, meshes, OpenTelemetry, Spring, ingress-nginx's Ingress, a cloud exporter's dimensions.
 */
export const NAMING_LABELS = [
  'service',
  'service_name',
  'destination_workload',
  'destination_service_name',
  'dst_deployment',
  'deployment',
  'statefulset',
  'daemonset',
  'workload',
  'app_kubernetes_io_name',
  'app',
  'application',
  'container',
  'exported_service',
  'ingress',
];

/** A cloud exporter's dimension that names a service (`dimension_ServiceName`, `dimension_FunctionName`, ...). */
const DIMENSION =
  /^dimension_(service_?name|service|function_?name|db_?instance_?identifier|cache_?cluster_?id|target_?group|queue_?name|table_?name|cluster_?name)$/i;

/** A cloud exporter's dimension label that names a service, when the series has one. */
export const dimensionOf = (metric: Record<string, string>): string | undefined => Object.keys(metric).find((k) => DIMENSION.test(k) && metric[k]);

/**
 * Whether a series' pod is its scrape target's own rather than what the series is about: an
 * exporter relaying other services' series (statsd, a cloud exporter, a collector) labels them
 * with its own pod and job, and names the service they are about by another label.
 */
export function podIsTarget(metric: Record<string, string>): boolean {
  if (!metric.pod || !metric.job) return false;
  const job = targetName(metric.job);
  const workload = workloadOfPod(metric.pod);
  if (workload !== job && !metric.pod.startsWith(`${job}-`)) return false;
  return (
    NAMING_LABELS.some((l) => l !== 'container' && metric[l] && metric[l] !== workload && metric[l] !== job && !isExporterTarget(metric[l])) ||
    dimensionOf(metric) !== undefined
  );
}

/**
 * The entity one series is about: the workload of its pod (whatever its `job` or `service` say,
 * unless the pod is an exporter's own), else the first naming label whose value is not an
 * exporter's, else a cloud exporter's dimension naming a service, else its job when that is not an
 * exporter's. Null when nothing names one.
 */
export function entityOfSeries(metric: Record<string, string>): { name: string; label: string } | null {
  if (metric.pod && !podIsTarget(metric)) return { name: workloadOfPod(metric.pod), label: 'pod' };
  const label = namingLabelOf(metric);
  return label ? { name: metric[label], label } : null;
}

/** The label that names what a series (or an alert) is about: the first naming label not an exporter's, else a cloud exporter's dimension, else a job not an exporter's. */
export function namingLabelOf(metric: Record<string, string>): string | undefined {
  const named = NAMING_LABELS.find((l) => {
    const value = metric[l];
    return value && !isExporterTarget(value) && value !== 'unknown' && value !== 'POD';
  });
  if (named) return named;
  const dimension = dimensionOf(metric);
  if (dimension) return dimension;
  return metric.job && !isExporterTarget(metric.job) ? 'job' : undefined;
}

/**
 * Whether a label of a series names its scrape target rather than what the series is about: the
 * `endpoint` and `metrics_path` of any; the `job`, `instance` and `service` of an exporter's series
 * (its job names an exporter); a pod (and its container and namespace) that is an exporter's own;
 * and the `job` or `service` of a series whose pod belongs to another workload.
 */
export function isScrapeTargetLabel(metric: Record<string, string>, label: string): boolean {
  if (label === 'endpoint' || label === 'metrics_path') return true;
  const ownPod = podIsTarget(metric);
  if (label === 'pod' || label === 'container') return ownPod;
  if (label === 'instance') return isExporterTarget(metric.job);
  if (label !== 'job' && label !== 'service') return false;
  const value = metric[label];
  if (isExporterTarget(value)) return true;
  if (label === 'job' && isExporterTarget(metric.job)) return true;
  if (ownPod || !metric.pod || !value) return false;
  return workloadOfPod(metric.pod) !== value && !metric.pod.startsWith(`${value}-`);
}

/** Where a pod runs and what owns it, as kube-state-metrics lists it. */
export interface PodPlacement {
  namespace?: string;
  pod: string;
  workload: string;
  /** The owner's kind at the top of the chain: Deployment, StatefulSet, DaemonSet, Job, CronJob, ReplicaSet, or Pod when none. */
  kind: string;
  node?: string;
}

/**
 * Pods resolved to their workloads and nodes from kube-state-metrics' series (`kube_pod_owner`,
 * `kube_replicaset_owner`, `kube_job_owner`, `kube_pod_info`'s `created_by_*` and `node`), read
 * together in one instant query; a pod none of them lists keeps the workload its name gives.
 */
export class Placements {
  private readonly pods = new Map<string, PodPlacement>();

  /**
   * The PromQL that lists the pods `pods` selects (a matcher such as `pod=~"(checkout)-.+"`, or
   * none for every pod) in `namespace` (or every namespace): their owners, the owners of their
   * ReplicaSets and Jobs, and their nodes.
   */
  static query(namespace: string | undefined, pods?: string): string {
    const ns = namespace ? `namespace=${JSON.stringify(namespace)}` : '';
    const podSelector = `{${[ns, pods ?? ''].filter(Boolean).join(', ')}}`;
    const nsSelector = `{${ns}}`;
    return [
      `label_replace(max by (namespace, pod, owner_kind, owner_name) (kube_pod_owner${podSelector}), "placement", "owner", "", "")`,
      `label_replace(max by (namespace, replicaset, owner_kind, owner_name) (kube_replicaset_owner${nsSelector}), "placement", "replicaset", "", "")`,
      `label_replace(max by (namespace, job_name, owner_kind, owner_name) (kube_job_owner${nsSelector}), "placement", "job", "", "")`,
      `label_replace(max by (namespace, pod, node, created_by_kind, created_by_name) (kube_pod_info${podSelector}), "placement", "info", "", "")`,
      // The kubelet's cAdvisor series carry the node (kube-prometheus relabels it on) where kube_pod_info does not list the pod.
      `label_replace(max by (namespace, pod, node) (container_cpu_usage_seconds_total{${[...(ns ? [ns] : []), ...(pods ? [pods] : []), 'node!=""'].join(', ')}} unless on (namespace, pod) kube_pod_info), "placement", "info", "", "")`,
    ].join(' or ');
  }

  /** The placements a read of `query()` shows. */
  static of(series: ReadonlyArray<{ metric: Record<string, string> }>): Placements {
    const placements = new Placements();
    const replicaSets = new Map<string, { kind: string; name: string }>();
    const jobs = new Map<string, { kind: string; name: string }>();
    for (const { metric: m } of series) {
      const key = `${m.namespace ?? ''}/${m.replicaset ?? m.job_name ?? ''}`;
      if (m.placement === 'replicaset' && m.replicaset && m.owner_name && m.owner_kind && m.owner_kind !== '<none>')
        replicaSets.set(key, { kind: m.owner_kind, name: m.owner_name });
      if (m.placement === 'job' && m.job_name && m.owner_name && m.owner_kind && m.owner_kind !== '<none>')
        jobs.set(key, { kind: m.owner_kind, name: m.owner_name });
    }
    const top = (namespace: string | undefined, kind: string, name: string): { kind: string; name: string } => {
      const up = (kind === 'ReplicaSet' ? replicaSets : kind === 'Job' ? jobs : undefined)?.get(`${namespace ?? ''}/${name}`);
      if (up) return up;
      // A ReplicaSet no owner read lists is its Deployment's by name (`<deployment>-<hash>`).
      if (kind === 'ReplicaSet') {
        const deployment = /^(.+)-[a-z0-9]{6,10}$/.exec(name)?.[1];
        if (deployment) return { kind: 'Deployment', name: deployment };
      }
      return { kind, name };
    };
    for (const { metric: m } of series) {
      if (!m.pod) continue;
      const held = placements.pods.get(m.pod) ?? { namespace: m.namespace, pod: m.pod, workload: workloadOfPod(m.pod), kind: 'Pod' };
      if (m.placement === 'owner' && m.owner_kind && m.owner_name && m.owner_kind !== '<none>') {
        const owner = top(m.namespace, m.owner_kind, m.owner_name);
        held.workload = owner.name;
        held.kind = owner.kind;
      }
      if (m.placement === 'info') {
        if (m.node) held.node = m.node;
        if (held.kind === 'Pod' && m.created_by_kind && m.created_by_name && m.created_by_kind !== '<none>') {
          const owner = top(m.namespace, m.created_by_kind, m.created_by_name);
          held.workload = owner.name;
          held.kind = owner.kind;
        }
      }
      placements.pods.set(m.pod, held);
    }
    return placements;
  }

  get(pod: string): PodPlacement | undefined {
    return this.pods.get(pod);
  }

  /** The pod's workload: as the owner chain names it, else as its name gives it. */
  workloadOf(pod: string): string {
    return this.pods.get(pod)?.workload ?? workloadOfPod(pod);
  }

  /** Every pod placed, in the order read. */
  all(): PodPlacement[] {
    return [...this.pods.values()];
  }

  /** The workloads with a pod on `node`. */
  onNode(node: string): string[] {
    return [
      ...new Set(
        this.all()
          .filter((p) => p.node === node)
          .map((p) => p.workload),
      ),
    ].sort();
  }

  /** The nodes the pods of `workload` run on. */
  nodesOf(workload: string): string[] {
    return [
      ...new Set(
        this.all()
          .filter((p) => p.workload === workload && p.node)
          .map((p) => p.node!),
      ),
    ].sort();
  }
}
