import { describe, expect, it } from 'vitest';
import { CONVENTION_SCENARIOS, conventionScenario } from '../../eval/convention-scenarios';
import { Convention, CONVENTIONS, metricNames } from '../../eval/conventions';
import { candidates, InvestigationRead, score } from '../../eval/harness';
import { Scenario, SCENARIOS } from '../../eval/scenarios';
import { ALL_SCENARIOS, suiteOf } from '../../eval/suites';
import { Telemetry } from '../../eval/telemetry';

/**
 * The evaluation's generator, without Prometheus: each convention writes the metrics its library
 * emits, each scenario's rules read only metrics its cluster writes (so a page that can never fire
 * is caught here), and the suites split as the evaluation expects.
 */

/** The end of the data, on a 30 s boundary. */
const END = 1_790_000_010 - (1_790_000_010 % 30);

function telemetryOf(scenario: Scenario): Telemetry {
  const cluster = scenario.build(END);
  cluster.emit();
  return cluster.telemetry;
}

/** Metrics each convention's workloads expose, whatever the scenario (server side and runtime). */
const EXPECTED: Record<Convention, string[]> = {
  opentelemetry: ['target_info', 'http_server_request_duration_seconds_bucket', 'http_server_request_duration_seconds_count', 'process_memory_usage_bytes'],
  micrometer: [
    'http_server_requests_seconds_count',
    'http_server_requests_seconds_bucket',
    'http_server_requests_seconds_max',
    'jvm_memory_used_bytes',
    'process_cpu_usage',
  ],
  istio: ['istio_requests_total', 'istio_request_duration_milliseconds_bucket'],
  linkerd: ['request_total', 'response_total', 'response_latency_ms_bucket'],
  'grpc-go': ['grpc_server_handled_total', 'grpc_server_handling_seconds_bucket', 'grpc_server_started_total', 'go_goroutines', 'nodejs_eventloop_lag_seconds'],
  'node-prom-client': ['http_request_duration_seconds_bucket', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes'],
  'python-instrumentator': [
    'http_requests_total',
    'http_request_duration_seconds_bucket',
    'http_request_duration_highr_seconds_bucket',
    'python_gc_objects_collected_total',
    'python_info',
  ],
  'ingress-nginx': ['nginx_ingress_controller_requests', 'nginx_ingress_controller_request_duration_seconds_bucket', 'go_goroutines'],
};

/** Labels each convention's server-side request metric carries. */
const LABELS: Partial<Record<Convention, [string, string[]]>> = {
  opentelemetry: ['http_server_request_duration_seconds_count', ['http_response_status_code', 'http_route', 'http_request_method', 'service_name', 'job']],
  micrometer: ['http_server_requests_seconds_count', ['status', 'uri', 'outcome', 'method']],
  istio: ['istio_requests_total', ['reporter', 'source_workload', 'destination_workload', 'destination_service_name', 'response_code']],
  linkerd: ['response_total', ['direction', 'deployment', 'status_code', 'classification']],
  'grpc-go': ['grpc_server_handled_total', ['grpc_service', 'grpc_method', 'grpc_code']],
  'node-prom-client': ['http_request_duration_seconds_count', ['status_code', 'method', 'path']],
  'python-instrumentator': ['http_requests_total', ['handler', 'status', 'method']],
  'ingress-nginx': ['nginx_ingress_controller_requests', ['status', 'ingress', 'exported_service', 'exported_namespace', 'path']],
};

/** Client-side metrics of each convention that has them, when the scenario does not lack them. */
const CLIENT: Partial<Record<Convention, RegExp>> = {
  opentelemetry: /^(http_client_request_duration_seconds|db_client_operation_duration_seconds)_count$/,
  micrometer: /^http_client_requests_seconds_count$/,
  istio: /^istio_requests_total$/,
  linkerd: /^response_total$/,
};

describe('the evaluation generator', () => {
  it('keeps the own suite and adds at least forty convention scenarios, a quarter or more of them (21) held out', () => {
    expect(SCENARIOS).toHaveLength(23);
    expect(SCENARIOS.every((s) => suiteOf(s) === 'own')).toBe(true);
    expect(CONVENTION_SCENARIOS.length).toBeGreaterThanOrEqual(40);
    const holdout = CONVENTION_SCENARIOS.filter((s) => s.split === 'holdout').length;
    expect(holdout).toBeGreaterThanOrEqual(21);
    expect(4 * holdout).toBeGreaterThanOrEqual(CONVENTION_SCENARIOS.length);
    expect(new Set(ALL_SCENARIOS.map((s) => s.name)).size).toBe(ALL_SCENARIOS.length);
  });

  it('has every family in both splits and in at least two conventions', () => {
    const families = new Set(SCENARIOS.map((s) => s.family));
    for (const family of families) {
      const ofFamily = CONVENTION_SCENARIOS.filter((s) => s.family === family);
      expect(new Set(ofFamily.map((s) => s.split)), family).toEqual(new Set(['dev', 'holdout']));
      expect(new Set(ofFamily.map((s) => s.convention)).size, family).toBeGreaterThanOrEqual(2);
    }
    for (const split of ['dev', 'holdout'])
      expect(new Set(CONVENTION_SCENARIOS.filter((s) => s.split === split).map((s) => s.convention)), split).toEqual(new Set(CONVENTIONS));
  });

  /** Each convention's own metrics and labels; what a scenario lacks, lacking. */
  function checkConvention(scenario: Scenario, tel: Telemetry): void {
    const names = tel.metricNames();
    const convention = scenario.convention!;
    for (const metric of EXPECTED[convention]) expect(names, metric).toContain(metric);
    const [metric, labels] = LABELS[convention]!;
    const labelled = tel.labelsOf(metric);
    expect(labelled.length).toBeGreaterThan(0);
    for (const label of labels)
      expect(
        labelled.some((l) => label in l),
        `${metric} has ${label}`,
      ).toBe(true);
    // The generator's default server metric (http_requests_total{code}) is not written.
    expect(tel.labelsOf('http_requests_total').some((l) => 'code' in l)).toBe(false);
    expect(names.has('kube_pod_info')).toBe(!scenario.missing?.includes('kube_pod_info'));
    const client = CLIENT[convention];
    if (scenario.missing?.includes('client-metrics')) {
      expect([...names].filter((n) => /client_request|grpc_client_/.test(n))).toEqual([]);
      expect(tel.labelsOf('istio_requests_total').some((l) => l.reporter === 'source')).toBe(false);
      expect(tel.labelsOf('response_total').some((l) => l.direction === 'outbound')).toBe(false);
    } else if (client && scenario.family === 'certificate') {
      // The caller of an outside API sees its calls fail.
      expect([...names].some((n) => client.test(n))).toBe(true);
    }
  }

  it.each(ALL_SCENARIOS.map((s) => [s.name, s] as const))('%s: writes its convention, and its rules read only metrics it writes', (_name, scenario) => {
    const tel = telemetryOf(scenario);
    // Two emitters never write different values into one series.
    expect(tel.conflicts).toEqual([]);
    if (scenario.convention) checkConvention(scenario, tel);
    const names = tel.metricNames();
    for (const rule of [scenario.rule, ...(scenario.otherRules ?? [])]) {
      const read = metricNames(rule.expr);
      expect(read.length, rule.alert).toBeGreaterThan(0);
      for (const metric of read) expect(names.has(metric), `${rule.alert} reads ${metric}`).toBe(true);
    }
  });

  it.each([
    ['micrometer', /^hikaricp_connections_(active|idle|pending|max)$/, 'pool'],
    ['grpc-go', /^go_sql_stats_connections_(in_use|max_open|waited_for|blocked_seconds)$/, 'db_name'],
    ['opentelemetry', /^db_client_connections_(usage|max|pending_requests)$/, 'pool_name'],
  ] as const)('writes the connection pool metrics of %s', (convention, pattern, label) => {
    // The first drawn scenario of the pooled story in that convention (the suites need not have one).
    let scenario: Scenario | undefined;
    for (let seed = 1; !scenario && seed < 200; seed++) {
      for (let slot = 0; slot < CONVENTIONS.length; slot++) {
        const s = conventionScenario('database-saturation', seed, slot);
        if (s.convention === convention && s.name.startsWith('accounts-pool-exhausted')) scenario = s;
      }
    }
    const tel = telemetryOf(scenario!);
    const pools = [...tel.metricNames()].filter((n) => pattern.test(n));
    expect(pools.length, pools.join(', ')).toBeGreaterThanOrEqual(3);
    expect(tel.labelsOf(pools[0]).every((l) => label in l)).toBe(true);
    expect(scenario!.truth.series.test(pools[0])).toBe(true);
    for (const metric of metricNames(scenario!.rule.expr)) expect(tel.metricNames().has(metric), metric).toBe(true);
  });

  it('reads the metric names of PromQL expressions', () => {
    expect(
      metricNames(
        'label_replace(sum by (exported_namespace, ingress) (rate(nginx_ingress_controller_requests{ingress="x", status=~"5.."}[5m])) > 0.05, "namespace", "$1", "exported_namespace", "(.*)")',
      ),
    ).toEqual(['nginx_ingress_controller_requests']);
    expect(metricNames('max by (namespace, job, queue) (time() - rabbitmq_queue_head_message_timestamp) > 600')).toEqual([
      'rabbitmq_queue_head_message_timestamp',
    ]);
    expect(metricNames('up{job="frontend"} == 0 and on (pod) kube_pod_info')).toEqual(['up', 'kube_pod_info']);
    expect(metricNames('histogram_quantile(0.99, sum by (le) (rate(a_bucket[5m]))) > 1e3')).toEqual(['a_bucket']);
  });

  describe('top-3', () => {
    const scenario = SCENARIOS.find((s) => s.name === 'checkout-bad-version')!;
    const cause = (statement: string, hypothesisId?: string) => ({ kind: 'cause', statement, mechanism: '', runRefs: [], evidenceRefs: [], hypothesisId });
    const hypothesis = (id: string, statement: string, status = 'supported') => ({ id, statement, status, runRefs: [] });
    const read = (findings: ReturnType<typeof cause>[], hypotheses: ReturnType<typeof hypothesis>[]): InvestigationRead => ({
      id: 'i',
      status: 'concluded',
      findings,
      hypotheses,
      runs: [],
    });

    it('lists the cause findings, then the hypotheses neither refuted nor confirmed by a cause, without repeats', () => {
      const investigation = read(
        [cause('Node pressure', 'h1'), cause('A noisy neighbour')],
        [
          hypothesis('h1', 'Node pressure'),
          hypothesis('h2', 'a  noisy NEIGHBOUR'),
          hypothesis('h3', 'checkout 2.15.0 broke', 'refuted'),
          hypothesis('h4', 'checkout 2.15.0'),
        ],
      );
      expect(candidates(investigation)).toEqual(['Node pressure ', 'A noisy neighbour ', 'checkout 2.15.0']);
    });

    it('counts the truth named by the third candidate, not the fourth', () => {
      const third = score(scenario, read([cause('Node pressure')], [hypothesis('h1', 'A noisy neighbour'), hypothesis('h2', 'checkout 2.15.0 fails')]), 1, []);
      expect(third.top1).toBe(false);
      expect(third.top3).toBe(true);
      const fourth = score(
        scenario,
        read([cause('Node pressure')], [hypothesis('h1', 'A noisy neighbour'), hypothesis('h2', 'DNS'), hypothesis('h3', 'checkout 2.15.0 fails')]),
        1,
        [],
      );
      expect(fourth.top3).toBe(false);
      const first = score(scenario, read([cause('checkout 2.15.0 fails')], []), 1, []);
      expect([first.top1, first.top3]).toEqual([true, true]);
    });
  });
});
