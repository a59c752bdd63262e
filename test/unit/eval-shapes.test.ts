import { describe, expect, it } from 'vitest';
import { HOLDOUT_SHAPE_SCENARIOS } from '../../eval/holdout/shape-scenarios';
import { Scenario } from '../../eval/scenarios';
import { SHAPE_SCENARIOS } from '../../eval/shape-scenarios';
import { Shape, SHAPES, yaceName } from '../../eval/shapes';
import { ALL_SCENARIOS, suiteOf } from '../../eval/suites';
import { Labels, Telemetry } from '../../eval/telemetry';

/**
 * The shapes suites' generator, without Prometheus: each scenario writes the shape it stands for,
 * and the holdout differs from dev in names, seeds and conventions. Scenarios are addressed by
 * shape and index, so that no holdout name is spelt here.
 */

const END = 1_790_000_010 - (1_790_000_010 % 30);

const built = new Map<Scenario, Telemetry>();
function telemetryOf(scenario: Scenario): Telemetry {
  let tel = built.get(scenario);
  if (!tel) {
    const cluster = scenario.build(END);
    cluster.emit();
    tel = cluster.telemetry;
    built.set(scenario, tel);
  }
  return tel;
}

const ALL = [...SHAPE_SCENARIOS, ...HOLDOUT_SHAPE_SCENARIOS];
const ofShape = (shape: Shape): Scenario[] => ALL.filter((s) => s.shape === shape);

/** The samples of each series of `name` whose labels `match`. */
const values = (tel: Telemetry, name: string, match: (l: Labels) => boolean): number[][] =>
  tel
    .samplesOf(name)
    .filter((s) => match(s.labels))
    .map((s) => s.values);

// Generating every shapes scenario takes a while on a shared machine; each is built once.
describe('the shapes suites', { timeout: 300_000 }, () => {
  it('split into dev and holdout, every shape in both, with distinct names, seeds and conventions', () => {
    expect(SHAPE_SCENARIOS.every((s) => suiteOf(s) === 'shapes-dev')).toBe(true);
    expect(HOLDOUT_SHAPE_SCENARIOS.every((s) => suiteOf(s) === 'shapes-holdout')).toBe(true);
    for (const shape of SHAPES) {
      expect(SHAPE_SCENARIOS.filter((s) => s.shape === shape).length, shape).toBeGreaterThanOrEqual(2);
      expect(HOLDOUT_SHAPE_SCENARIOS.filter((s) => s.shape === shape).length, shape).toBeGreaterThanOrEqual(1);
    }
    const seeds = new Set(SHAPE_SCENARIOS.map((s) => s.seed));
    expect(HOLDOUT_SHAPE_SCENARIOS.filter((s) => seeds.has(s.seed))).toEqual([]);
    const conventions = new Set(SHAPE_SCENARIOS.map((s) => s.convention ?? 'prometheus-client'));
    expect(HOLDOUT_SHAPE_SCENARIOS.filter((s) => conventions.has(s.convention ?? 'prometheus-client') && s.shape !== 'cloud-exporter')).toEqual([]);
    // The cloud exporters differ in namespace and in the dimension label that names a service.
    const devFamilies = new Set(SHAPE_SCENARIOS.filter((s) => s.labelling?.startsWith('yace')).map((s) => s.labelling));
    expect(HOLDOUT_SHAPE_SCENARIOS.filter((s) => devFamilies.has(s.labelling))).toEqual([]);
    expect(new Set(ALL_SCENARIOS.map((s) => s.name)).size).toBe(ALL_SCENARIOS.length);
  });

  it('writes the owner series of kube-state-metrics wherever the cluster has Kubernetes', () => {
    for (const [k, s] of ALL.entries()) {
      const names = telemetryOf(s).metricNames();
      if (s.shape === 'cloud-exporter') continue;
      expect(names.has('kube_pod_owner'), `scenario ${k}`).toBe(true);
      expect(names.has('kube_replicaset_owner'), `scenario ${k}`).toBe(true);
    }
  });

  it('labels exporter series as kube-prometheus does (scrape-labels)', () => {
    for (const s of ofShape('scrape-labels')) {
      const tel = telemetryOf(s);
      expect(tel.labelsOf('container_cpu_usage_seconds_total').every((l) => l.service === 'kubelet' && l.endpoint === 'https-metrics')).toBe(true);
      expect(tel.labelsOf('prober_probe_total').every((l) => l.service === 'kubelet')).toBe(true);
      expect(tel.labelsOf('kube_pod_info').every((l) => l.service === 'kube-state-metrics')).toBe(true);
      expect(tel.labelsOf('node_cpu_seconds_total').every((l) => l.service === 'node-exporter')).toBe(true);
    }
  });

  it('writes only a YACE-style exporter, without namespace or Kubernetes labels (cloud-exporter)', () => {
    expect(yaceName('AWS/ApplicationELB', 'HTTPCode_Target_5XX_Count', 'Sum')).toBe('aws_applicationelb_httpcode_target_5_xx_count_sum');
    expect(yaceName('AWS/EC2', 'CPUUtilization', 'Average')).toBe('aws_ec2_cpuutilization_average');
    for (const s of ofShape('cloud-exporter')) {
      const tel = telemetryOf(s);
      const names = [...tel.metricNames()];
      expect(names.filter((n) => n !== 'up' && !n.startsWith('aws_'))).toEqual([]);
      for (const name of names) {
        for (const l of tel.labelsOf(name)) {
          expect(l.job).toBe('cloudwatch');
          for (const k8s of ['namespace', 'pod', 'node', 'container', 'source_workload', 'destination_workload', 'client', 'server', 'peer'])
            expect(l).not.toHaveProperty(k8s);
          if (name !== 'up') expect(l).toHaveProperty('region');
        }
      }
      // Latency, errors and utilisation are each listed for several services.
      const perService = names.filter((n) => /_(average|p\d+|sum|maximum)$/.test(n)).map((n) => tel.labelsOf(n).length);
      expect(Math.min(...perService)).toBeGreaterThanOrEqual(4);
    }
  });

  it('writes CloudWatch `_sum` statistics that go down as well as up, and a constant CPU period (gauge-statistics)', () => {
    for (const s of ofShape('gauge-statistics')) {
      const tel = telemetryOf(s);
      const sums = [...tel.metricNames()].filter((n) => n.startsWith('aws_') && n.endsWith('_sum'));
      expect(sums.length).toBeGreaterThan(0);
      const series = values(tel, sums[0], () => true);
      expect(series.some((v) => v.some((x, i) => i > 0 && x < v[i - 1]))).toBe(true);
      expect([...tel.metricNames()].some((n) => /^aws_.*_(average|maximum)$/.test(n))).toBe(true);
      expect(new Set(values(tel, 'container_spec_cpu_period', () => true).flat())).toEqual(new Set([100_000]));
    }
  });

  it('writes client latency labelled only by the caller and the peer (peer-label)', () => {
    for (const s of ofShape('peer-label')) {
      const tel = telemetryOf(s);
      const peered = [...tel.metricNames()].filter((n) => tel.labelsOf(n).some((l) => 'peer' in l));
      expect(peered.length).toBeGreaterThan(0);
      for (const n of peered)
        for (const l of tel.labelsOf(n))
          for (const pair of ['client', 'server', 'source_workload', 'destination_workload', 'dst_deployment']) expect(l).not.toHaveProperty(pair);
      expect(s.truth.values[0].some((v) => peered.some((n) => tel.labelsOf(n).some((l) => l.peer === v)))).toBe(true);
    }
  });

  it('leaves the neighbour without a CPU limit, quota or CFS periods, and the victim unthrottled (node-cpu)', () => {
    for (const s of ofShape('node-cpu')) {
      const tel = telemetryOf(s);
      const neighbour = s.truth.values[0][0];
      expect(tel.labelsOf('container_cpu_usage_seconds_total').some((l) => l.container === neighbour)).toBe(true);
      for (const n of ['container_spec_cpu_quota', 'container_cpu_cfs_periods_total', 'container_cpu_cfs_throttled_periods_total'])
        expect(tel.labelsOf(n).some((l) => l.container === neighbour)).toBe(false);
      expect(tel.labelsOf('kube_pod_container_resource_limits').some((l) => l.container === neighbour && l.resource === 'cpu')).toBe(false);
      expect(tel.labelsOf('kube_pod_container_resource_limits').some((l) => l.container === neighbour && l.resource === 'memory')).toBe(true);
    }
  });

  it('reports a release train of several rollouts before the fault, one of them the truth (release-train)', () => {
    for (const s of ofShape('release-train')) {
      const changes = s.changes!(END);
      expect(changes.length).toBeGreaterThanOrEqual(3);
      expect(changes.length).toBeLessThanOrEqual(6);
      const span = Math.max(...changes.map((c) => c.at)) - Math.min(...changes.map((c) => c.at));
      expect(span).toBeLessThanOrEqual(10 * 60);
      const [[service], [version]] = s.truth.values;
      expect(changes.filter((c) => c.service === service && c.versionAfter === version)).toHaveLength(1);
      // Every release shows in the metrics too: a new version of its service.
      const versions = telemetryOf(s).labelsOf('kube_pod_container_info');
      for (const c of changes) expect(versions.some((l) => l.container === c.service && l.image.endsWith(`:${c.versionAfter}`))).toBe(true);
    }
  });

  it('writes the mechanism each mechanism scenario names', () => {
    const scenarios = ofShape('mechanism');
    const families = scenarios.map((s) => s.family);
    for (const family of ['certificate', 'database-saturation', 'configuration', 'downstream-latency'])
      expect(families.filter((f) => f === family).length, family).toBeGreaterThanOrEqual(2);
    for (const s of scenarios) {
      const tel = telemetryOf(s);
      if (s.family === 'certificate') expect(tel.metricNames().has('probe_ssl_earliest_cert_expiry')).toBe(true);
      if (s.family === 'database-saturation') {
        const cron = s.truth.values[0][0];
        expect(tel.labelsOf('kube_job_owner').some((l) => l.owner_kind === 'CronJob' && l.owner_name === cron)).toBe(true);
        expect(tel.labelsOf('kube_pod_owner').some((l) => l.owner_kind === 'Job' && l.owner_name.startsWith(`${cron}-`))).toBe(true);
        expect(tel.metricNames().has('pg_settings_max_connections')).toBe(true);
      }
      if (s.family === 'configuration') expect(tel.labelsOf('kube_configmap_info').some((l) => l.configmap === s.truth.values[0][0])).toBe(true);
      if (s.family === 'downstream-latency') expect(s.truth.values[1]).toContain('latency');
    }
  });
});
