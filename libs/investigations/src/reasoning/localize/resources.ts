import { withWorkload } from '../discovery/entity-model';
import { quote } from '../explainers/labels';
import type { Measure, Subject } from '../discovery/related-series';

/** The metrics the measures against limits read: cAdvisor's use, kube-state-metrics' limits, cAdvisor's own quota and limit. */
export const RESOURCE_READS = [
  'container_cpu_usage_seconds_total',
  'container_memory_working_set_bytes',
  'kube_pod_container_resource_limits',
  'container_spec_cpu_quota',
];

/** cAdvisor's series of a pod's containers, without the pod's own cgroup and the pause container. */
const containers = (metric: string, subject: Pick<Subject, 'pattern' | 'within'>): string =>
  `${metric}{container!="", container!="POD", pod=~${quote(subject.pattern)}${subject.within ? `, ${subject.within}` : ''}}`;

/**
 * A workload's CPU against its limit: per pod, the cores its containers use over the cores its
 * limits allow (kube-state-metrics' limits, else cAdvisor's CFS quota), the busiest pod's share.
 */
export const CPU_OF_LIMIT: Measure = {
  metric: 'container_cpu_usage_seconds_total',
  label: 'pod',
  byWorkload: true,
  meaning: { kind: 'saturation', resource: 'cpu', counter: false, distribution: null, unit: 'ratio', worse: 'up' },
  derived: {
    what: 'the CPU use against its limit',
    expression: (subject) => {
      const used = `sum by (namespace, pod) (rate(${containers('container_cpu_usage_seconds_total', subject)}[2m]))`;
      const limits = `sum by (namespace, pod) (${containers('kube_pod_container_resource_limits', subject).replace('{', '{resource="cpu", ')})`;
      const quota = `sum by (namespace, pod) (${containers('container_spec_cpu_quota', subject)} > 0) / 100000`;
      return `max by (workload) (${withWorkload(`${used} / (${limits} or ${quota})`)})`;
    },
  },
};

/** A workload's memory against its limit: per pod, its containers' working set over their limits, the fullest pod's share. */
export const MEMORY_OF_LIMIT: Measure = {
  metric: 'container_memory_working_set_bytes',
  label: 'pod',
  byWorkload: true,
  meaning: { kind: 'saturation', resource: 'memory', counter: false, distribution: null, unit: 'ratio', worse: 'up' },
  derived: {
    what: 'the memory use against its limit',
    expression: (subject) => {
      const used = `sum by (namespace, pod) (${containers('container_memory_working_set_bytes', subject)})`;
      const limits = `sum by (namespace, pod) (${containers('kube_pod_container_resource_limits', subject).replace('{', '{resource="memory", ')})`;
      const spec = `sum by (namespace, pod) (${containers('container_spec_memory_limit_bytes', subject)} > 0)`;
      return `max by (workload) (${withWorkload(`${used} / (${limits} or ${spec})`)})`;
    },
  },
};

/** A workload whose CPU reached this share of its limit in the minutes before the end of a read is hot. */
const HOT_SHARE = 0.6;

/**
 * Every workload of `namespace` whose CPU reached HOT_SHARE of its limit in the ten minutes
 * before the read's end (its whole series kept, for its history): where what the alerting entity
 * depends on is unknown (an entry service, calls not in the metrics), a workload of its namespace
 * that ran into its CPU limit at the onset is a suspect however it is called. One series each.
 */
export function hotWorkloads(namespace: string): Measure {
  const within = `namespace=${quote(namespace)}`;
  const share = CPU_OF_LIMIT.derived!.expression({ pattern: '.+', within });
  return {
    ...CPU_OF_LIMIT,
    derived: {
      what: CPU_OF_LIMIT.derived!.what,
      expression: () => `${share} and on (workload) (max_over_time((${share})[10m:1m] @ end()) > ${HOT_SHARE})`,
    },
    series: 10,
  };
}
