import { escape } from '../explainers/labels';
import { dimensionOf, isExporterTarget, NAMING_LABELS, workloadOfPod } from './entity-model';

/**
 * The entity an alert is about, read from its labels: the service or workload (by whatever label
 * names it), its namespace, and the pods, instances and nodes it names.
 */
export interface Entity {
  /** The service or workload, as the alert names it (the first alert's, when alerts of one rule name several). */
  name: string;
  /** Every service or workload the alerts name (several when the rule fired for several services). */
  names: string[];
  namespace?: string;
  pods: string[];
  instances: string[];
  nodes: string[];
}

const values = (alerts: ReadonlyArray<Record<string, string>>, name: string): string[] => [
  ...new Set(alerts.map((a) => a[name]).filter((v): v is string => !!v)),
];

/** The entity of a set of alerts of one rule; null when no label of theirs names one. */
export function entityOf(alerts: ReadonlyArray<Record<string, string>>): Entity | null {
  const pods = values(alerts, 'pod');
  const jobs = values(alerts, 'job').filter((j) => !isExporterTarget(j));
  const podWorkloads = [...new Set(pods.map(workloadOfPod))];
  // A scrape target's `service` or `job` (the kubelet's, kube-state-metrics') names the exporter, not what the alert is about.
  // A container's name is the pods' workload's only where no other label names it.
  const named = NAMING_LABELS.filter((l) => l !== 'container' || !pods.length)
    .map((l) => values(alerts, l).filter((v) => !isExporterTarget(v)))
    .find((v) => v.length > 0);
  // A cloud exporter's alert names its service by a dimension (`dimension_FunctionName`).
  const dimension = dimensionOf(alerts[0] ?? {});
  const dimensions = dimension ? values(alerts, dimension) : [];
  const names = named ?? (podWorkloads.length ? podWorkloads : undefined) ?? (dimensions.length ? dimensions : undefined) ?? (jobs.length ? jobs : undefined);
  if (!names) return null;
  const name = names[0];
  const namespaces = values(alerts, 'namespace');
  return {
    name,
    names,
    namespace: namespaces.length === 1 ? namespaces[0] : undefined,
    pods,
    instances: values(alerts, 'instance'),
    nodes: [...values(alerts, 'node'), ...values(alerts, 'kubernetes_node')],
  };
}

/**
 * A PromQL regular expression matching a label value that names `name`: the name itself, or
 * containing it between characters that are not letters or digits (`shop/checkout`,
 * `checkout.shop.svc:8080`, `checkout-7d9f8-x2x1q`), case-insensitively.
 */
export function namingPattern(name: string): string {
  return `(?i)(.*[^a-z0-9])?${escape(name)}([^a-z0-9].*)?`;
}

/** The regular expression of label values that name the entity, one of its pods or one of its instances' hosts (see namingPattern). */
export function entityPattern(entity: Entity): string {
  const all = [...entity.names, ...entity.pods, ...entity.instances.map((i) => i.replace(/:\d+$/, ''))];
  return `(?i)(.*[^a-z0-9])?(${[...new Set(all)].map(escape).join('|')})([^a-z0-9].*)?`;
}
