import { afterAll, describe, expect, it } from 'vitest';
import type { Conclusion, FindingItem } from '@svc/investigations';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, score, ScenarioResult, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import type { Scenario } from '../../eval/scenarios';
import { ALL_SCENARIOS, suiteOf } from '../../eval/suites';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';

/**
 * Each cause detector of the built-in reasoner on the evaluation scenario of its family: three
 * hours of kube-prometheus data backfilled into a real Prometheus (promtool), the alerts
 * Alertmanager would have delivered, and the reasoner reading that Prometheus through the
 * investigation tools (the worker's ToolCatalog) within the default budgets. The conclusion is
 * checked as the worker checks it before storing it, and scored as `npm run eval` scores it.
 */
describe('cause detectors on generated incidents', () => {
  const staged: StagedPrometheus[] = [];

  afterAll(async () => {
    for (const s of staged) await s.stop();
  });

  const investigate = async (
    named: string | Scenario,
  ): Promise<{ result: ScenarioResult; conclusion: Conclusion; cause: FindingItem | undefined; queries: string[] }> => {
    const scenario = typeof named === 'string' ? ALL_SCENARIOS.find((s) => s.name === named)! : named;
    // The held-out suite is never a test's: the reasoner is not tuned on it.
    expect(suiteOf(scenario)).not.toBe('conventions-holdout');
    const prometheus = await stagePrometheus(scenario);
    staged.push(prometheus);
    const [pages, ...others] = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(prometheus.prometheus.url, r, prometheus.start, prometheus.end)),
    );
    const session = directSession(prometheus.prometheus.url, pages[0], others.flat());
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    const result = score(scenario, { id: session.investigationId, status: 'concluded', ...conclusion, runs: session.runs }, 0, []);
    expect(session.runs.length).toBeLessThanOrEqual(DEFAULT_BUDGETS.toolRuns);
    expect(result.citationsExist).toBe(true);
    expect(result.falseConfidence).toBe(false);
    await prometheus.stop();
    staged.splice(staged.indexOf(prometheus), 1);
    return {
      result,
      conclusion,
      cause: conclusion.findings.find((f) => f.kind === 'cause'),
      queries: session.runs.map((r) => String(r.arguments.query ?? '')),
    };
  };

  const ruledOut = (c: Conclusion): string[] => c.findings.filter((f) => f.kind === 'ruled_out').map((f) => f.statement);

  it("a dependency down: the caller's failed calls by peer, the peer's probe down, a harmless rollout before it ruled out", async () => {
    const { result, conclusion, cause } = await investigate('inventory-down-harmless-rollout');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(cause?.statement).toMatch(/^inventory, which checkout calls, went down at /);
    expect(cause?.mechanism).toContain('connection_refused');
    // Why it went down is not in the data: a supported explanation that says so.
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain('Not verified: the data does not show why inventory went down');
    expect(ruledOut(conclusion)).toEqual([expect.stringMatching(/^Not the cause: The new build .*2\.14\.4.* served alone from /)]);
  }, 120_000);

  it("a dependency down seen by its exporter's *_up, investigated before an unrelated flapping alert delivered first", async () => {
    const { result, conclusion, cause } = await investigate('sessions-redis-down-flapping-alert');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(cause?.mechanism).toMatch(/^redis_up of .* went from 1 to 0 at /);
    expect(conclusion.limitations[0].statement).toMatch(
      /^The incident holds 2 alerts; CartHighErrorRate was investigated.*FrontendTargetDown \(its condition came and went \d+ times/,
    );
    expect(ruledOut(conclusion)).toEqual([expect.stringMatching(/^Not the cause: the other alert FrontendTargetDown .*flapping alert$/)]);
  }, 120_000);

  it("a dependency down behind a mesh that reports only the callee's side (Istio, reporter destination): the calls stopped reaching it, and it was seen down", async () => {
    const { result, cause, queries } = await investigate('payments-down-istio');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^payments, which checkout calls, went down at /);
    expect(cause?.mechanism).toMatch(/checkout's calls stopped reaching payments at .* \(its proxy counted [\d.]+ per second before, none after\)/);
    expect(queries.some((q) => q.includes('rate(istio_requests_total{source_workload="checkout"}[1m])'))).toBe(true);
  }, 120_000);

  it("an expired certificate of an external peer called through Linkerd: the outbound responses by authority failing, the probe's certificate in the past", async () => {
    const { result, conclusion, cause } = await investigate('partner-bank-certificate-expired-linkerd');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The TLS certificate of api\.partner-bank\.example \(https:\/\/api\.partner-bank\.example\/health\) expired at /);
    expect(cause?.mechanism).toMatch(/payments's calls to api\.partner-bank\.example began to fail \(503\)/);
  }, 120_000);

  it('a bad version of a service that exports no build series, seen in the image its pods run (kube_pod_container_info)', async () => {
    const { result, conclusion, cause } = await investigate('search-bad-version-linkerd');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The new build \(image="registry\.example\.com\/shop\/search:3\.3\.0"\) that started at /);
    expect(cause?.mechanism).toMatch(/^A new build \(image=.*\) of search started /);
  }, 120_000);

  it("a service's own pool exhausted, read from OpenTelemetry's database client metrics (db_client_connections_usage against _max)", async () => {
    const { result, cause } = await investigate('accounts-pool-exhausted-opentelemetry');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The connection pool accounts-pool of accounts was exhausted from /);
  }, 120_000);

  it("a surge of traffic on a gRPC server's method (grpc_server_started_total), verified by the CPU rising with it", async () => {
    const { result, conclusion, cause } = await investigate('recommendations-traffic-surge-grpc-go');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^A surge of traffic on recommendations\.v1\.RecommendationsService\/GetRecommendations of recommendations from /);
  }, 120_000);

  it("an expired certificate seen only by its blackbox probe, the caller's calls by peer not in the metrics: supported, the link left unverified", async () => {
    const { result, conclusion, cause } = await investigate('fraud-check-certificate-expired-python-instrumentator');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(cause?.statement).toMatch(/^The TLS certificate of api\.fraud-check\.example:443 expired at /);
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      "Not verified: the data does not show whether checkout's failing requests call api.fraud-check.example:443 (its calls by peer are not in the metrics)",
    );
  }, 120_000);

  it("a node lost under an alert named by its Ingress, without kube_pod_info: the pods placed on nodes by cAdvisor's node label", async () => {
    const { result, cause } = await investigate('ip-10-0-2-34-not-ready-ingress-nginx');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^Node ip-10-0-2-34\.eu-west-1\.compute\.internal NotReady from /);
  }, 120_000);

  it('a noisy neighbour without kube_pod_info: the bursting pod and the alerting pods placed on nodes by cAdvisor', async () => {
    const { result, cause } = await investigate('recommendations-noisy-neighbour-opentelemetry');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^ml-training-[a-z0-9]+-[a-z0-9]+ \(ml-training\), whose CPU use burst to /);
  }, 120_000);

  it("an error ratio read from a duration histogram's request count is about errors: the failing peer's probe and certificate are found", async () => {
    const { result, cause } = await investigate('partner-bank-certificate-expired-node-prom-client');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The TLS certificate of api\.partner-bank\.example:443 expired at /);
  }, 120_000);

  it("a database out of connections, the caller's calls by peer not in the metrics: the one database saturated near the onset, its link unverified", async () => {
    const { result, conclusion, cause } = await investigate('ordersdb-connections-exhausted-node-prom-client');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The connections of ordersdb:5432 reached their maximum at /);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      "Not verified: the data does not show whether orders's failing requests use ordersdb:5432 (its calls by peer are not in the metrics)",
    );
  }, 120_000);

  it("a surge on a route counted by OpenTelemetry's request durations, by service_name and http_route", async () => {
    const { result, conclusion, cause } = await investigate('cart-traffic-surge-opentelemetry');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^A surge of traffic on GET \/api\/cart of cart from /);
  }, 120_000);

  it('the same surge where the Collector names the job by service.name alone (no service.namespace): the route, not all routes', async () => {
    const base = ALL_SCENARIOS.find((s) => s.name === 'cart-traffic-surge-opentelemetry')!;
    const { result, cause } = await investigate({
      ...base,
      name: `${base.name}-job-is-service-name`,
      build(end) {
        const c = base.build(end);
        const emit = c.emit.bind(c);
        c.emit = () => {
          emit();
          c.telemetry.relabel((_, l) => (l.service_name && l.job === `${l.k8s_namespace_name}/${l.service_name}` ? { ...l, job: l.service_name } : l));
        };
        return c;
      },
    });
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^A surge of traffic on GET \/api\/cart of cart from /);
  }, 120_000);

  it("restarts after failing liveness probes behind a Redis that slowed, seen only by its exporter (the pods' calls to it not in the metrics)", async () => {
    const { result, conclusion, cause } = await investigate('cart-liveness-slow-redis-grpc-go');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^redis:\/\/sessions-redis\.shop\.svc:6379 answered slowly from .*, which failed the liveness probes of cart from /);
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show whether cart waits on redis://sessions-redis.shop.svc:6379 (its calls by peer are not in the metrics)',
    );
  }, 120_000);

  it("a filesystem full on the alerting pod's node, verified by the workload's failures from its pod on that node", async () => {
    const { result, conclusion, cause, queries } = await investigate('media-disk-full-flapping-alert');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The filesystem \/var\/lib\/media on ip-10-0-2-34\.eu-west-1\.compute\.internal filled up at /);
    expect(cause?.mechanism).toContain("media's failures came from its pods on ip-10-0-2-34");
    expect(queries.some((q) => q.startsWith('(max by (namespace, pod, node, host_ip) (kube_pod_info{namespace="shop", pod=~"media-.+"})'))).toBe(true);
  }, 120_000);

  it("a volume full (the pod's claim at zero bytes), not a filesystem of the same node full for hours", async () => {
    const { result, conclusion, cause } = await investigate('ledger-volume-full-chronic-mount');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The volume data-ledger filled up at /);
    expect(cause?.mechanism).toContain("ledger's failures came from its pods");
    expect(conclusion.findings.some((f) => f.statement.includes('/var/log/archive'))).toBe(false);
  }, 120_000);

  it("the service's own connection pool exhausted (HikariCP), a harmless rollout before it ruled out", async () => {
    const { result, conclusion, cause } = await investigate('accounts-pool-exhausted-harmless-rollout');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(cause?.statement).toMatch(/^The connection pool HikariPool-1 of accounts was exhausted from /);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(ruledOut(conclusion)).toEqual([expect.stringMatching(/^Not the cause: The new build .*1\.4\.1/)]);
  }, 120_000);

  it('a configuration change followed by crash loops: the ConfigMap edited, the Deployment rolled, its new pod crash looping with Error', async () => {
    const { result, conclusion, cause } = await investigate('cart-config-crashloop');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The edit of ConfigMap cart-config at .*, rolled out to cart at .*, made its new containers crash loop/);
    expect(cause?.mechanism).toContain('exiting with Error');
  }, 120_000);

  it("a queue's consumers gone: the worker scaled to zero just before, verified by the consumer count at zero", async () => {
    const { result, conclusion, cause } = await investigate('orders-worker-scaled-to-zero');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^orders-worker was scaled to zero at .*, leaving queue orders without consumers/);
    expect(cause?.mechanism).toMatch(/desired replicas went from 2 to 0 .* the consumers of queue orders went from 2 to 0/);
  }, 120_000);

  it('a slow downstream dependency through a chain of calls (checkout → payments → partner-bank), not verified: why it slowed is unknown', async () => {
    const { result, conclusion, cause } = await investigate('checkout-slow-partner-bank');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^partner-bank answered slowly from /);
    expect(cause?.mechanism).toMatch(/^checkout's calls to payments slowed at .*; payments's calls to partner-bank slowed at /);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    // The batch job that saturated one of checkout's nodes: checkout slowed on every node.
    expect(ruledOut(conclusion)).toEqual([expect.stringMatching(/^Not the cause: reports-batch-.* \(checkout's pods on other nodes show the condition too /)]);
  }, 120_000);

  it('CPU throttling from a lowered CPU limit, the same version rolled out', async () => {
    const { result, conclusion, cause } = await investigate('recommendations-cpu-throttled');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The CPU limit of recommendations, lowered from 1\.0 to 0\.3 cores at .*, throttled its containers/);
  }, 120_000);

  it("a node not ready behind a dependency's lost pod, investigated before a chronic alert", async () => {
    const { result, conclusion, cause } = await investigate('node-not-ready');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^Node ip-10-0-3-41\.eu-west-1\.compute\.internal NotReady from .*, which took down cart \(called by frontend\)/);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(ruledOut(conclusion)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Not the cause: the other alert CPUThrottlingHigh .*an hour or more before FrontendHighErrorRate's began: a chronic condition$/),
      ]),
    );
  }, 120_000);

  it("an expired certificate: the peer's probe failing and probe_ssl_earliest_cert_expiry in the past", async () => {
    const { result, conclusion, cause, queries } = await investigate('partner-bank-certificate-expired');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^The TLS certificate of partner-bank \(https:\/\/api\.partner-bank\.example\/health\) expired at /);
    expect(queries).toContain('probe_ssl_earliest_cert_expiry{instance="https://api.partner-bank.example/health"}');
  }, 120_000);

  it('database connections exhausted: pg_stat_activity_count against pg_settings_max_connections, a harmless rollout ruled out', async () => {
    const { result, conclusion, cause } = await investigate('ordersdb-connections-exhausted');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The connections of ordersdb reached their maximum \(ordersdb:5432\) at /);
    expect(cause?.mechanism).toContain('too_many_connections');
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(ruledOut(conclusion)).toEqual([expect.stringMatching(/^Not the cause: The new build .*2\.3\.1/)]);
  }, 120_000);

  it('a surge of traffic on one route, verified by the CPU rising with it', async () => {
    const { result, conclusion, cause } = await investigate('search-traffic-surge');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^A surge of traffic on GET \/api\/search of search from /);
  }, 120_000);

  it("a surge of traffic counted only by a Node middleware's duration histogram (by path), verified by the CPU rising with it", async () => {
    const { result, conclusion, cause, queries } = await investigate('search-traffic-surge-node-prom-client');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(cause?.statement).toMatch(/^A surge of traffic on GET \/api\/search of search from /);
    expect(queries.some((q) => q.includes('rate(http_request_duration_seconds_count{job="search"}[1m])'))).toBe(true);
  }, 120_000);

  it("restarts after failing liveness probes, whose failures follow a slow dependency of the pods' workload: the chain names both", async () => {
    const { result, conclusion, cause, queries } = await investigate('cart-liveness-slow-redis');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(cause?.statement).toMatch(
      /^sessions-redis answered slowly from .*, which failed the liveness probes of cart from .* and got its containers restarted/,
    );
    expect(cause?.mechanism).toMatch(/cart's calls to sessions-redis slowed at .*; the liveness probes of \d pod\(s\) of cart .* began to fail at /);
    // Why Redis slowed is not in the data.
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show why sessions-redis answered slowly (its own saturation or dependencies are not in the metrics)',
    );
    expect(queries.some((q) => /prober_probe_total\{namespace="shop", pod="cart-[a-z0-9]+-[a-z0-9]+", probe_type="Liveness"/.test(q))).toBe(true);
    // The restart is a step of that chain, not a hypothesis of its own.
    expect(conclusion.hypotheses.map((h) => h.id)).not.toContain('h-restart');
  }, 120_000);

  it('restarts after failing liveness probes with nothing in the data behind them: a supported explanation saying so, a neighbour with CPU to spare ruled out', async () => {
    const { result, conclusion, cause } = await investigate('inventory-liveness-unexplained');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^Failing liveness probes of inventory from .*, which got its containers restarted, caused the alert's condition$/);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show why the liveness probe of inventory failed (no slow or failing dependency, CPU throttling or starved node was seen before it)',
    );
    expect(ruledOut(conclusion)).toEqual([
      expect.stringMatching(/^Not the cause: catalog-sync-.* \(catalog-sync\), whose CPU use burst .* had CPU to spare: it was at most \d+% busy/),
    ]);
  }, 120_000);

  it("a noisy neighbour that starved the alert's pods on its node, verified by the condition on those pods only; neighbours elsewhere or with CPU to spare ruled out", async () => {
    const { result, conclusion, cause } = await investigate('search-noisy-neighbour');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(cause?.statement).toMatch(
      /^video-transcode-.* \(video-transcode\), whose CPU use burst to .* cores on node ip-10-0-2-34\.eu-west-1\.compute\.internal from .*, starved search of CPU/,
    );
    expect(cause?.mechanism).toMatch(
      /ip-10-0-2-34\.eu-west-1\.compute\.internal's CPU was 90% busy or more from .*; search's p99 latency rose on its pods on ip-10-0-2-34.* not on its pods on other nodes/,
    );
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(ruledOut(conclusion)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Not the cause: image-resizer-.* \(no pod of search that the alert covers runs on ip-10-0-1-23\.eu-west-1\.compute\.internal: they run on /,
        ),
        expect.stringMatching(/^Not the cause: log-shipper-.* \(ip-10-0-3-41\.eu-west-1\.compute\.internal had CPU to spare/),
      ]),
    );
  }, 120_000);

  it('a bad version, not the noisy neighbour on one of its nodes: the neighbour ruled out by the errors on its pods on other nodes', async () => {
    const { result, conclusion } = await investigate('payments-bad-version-noisy-neighbour');
    expect(result.top1).toBe(true);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(ruledOut(conclusion)).toEqual([
      expect.stringMatching(
        /^Not the cause: ledger-reconcile-.* \(ledger-reconcile\), whose CPU use burst .* \(payments's pods on other nodes show the condition too \(payments-/,
      ),
    ]);
  }, 120_000);

  it('crash loops from out-of-memory kills after a rollout lowered the memory limit; not verified when the working set was never seen at the limit', async () => {
    const { result, conclusion, cause } = await investigate('checkout-memory-limit-lowered');
    expect(result.top1).toBe(true);
    expect(cause?.statement).toMatch(/^The memory limit of checkout, lowered from 768 MiB to 320 MiB by the rollout at /);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^The working set of checkout's containers was not seen at 90% of their memory limit/)]),
    );
  }, 120_000);
});
