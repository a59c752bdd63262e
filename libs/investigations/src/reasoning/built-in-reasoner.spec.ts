import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { BuiltInReasoner } from './built-in-reasoner';
import { saturationStart } from './explainers/process-cpu';
import { recordRun } from '../../../../test/support/scripted-prometheus';
import type { InvestigationSession, ObservedRollout, RecordedRun, ToolCall } from './reasoner';
import type { RecordedChange } from './recorded-changes';

const at = (i: number): string => new Date(Date.UTC(2026, 10, 22, 2, 0, i * 15)).toISOString();
const series = (values: number[]) => ({ metric: { job: 'api' }, values: values.map((v, i) => [at(i), String(v)] as [string, unknown]) });

describe('saturationStart', () => {
  it('finds the first sample of a jump to several times the usual CPU', () => {
    expect(saturationStart(series([0.1, 0.12, 0.1, 0.11, 0.1, 0.1, 0.1, 0.9, 0.95, 1]))?.toISOString()).toBe('2026-11-22T02:01:45.000000Z');
  });

  it('ignores a busy but steady process and small relative jumps', () => {
    expect(saturationStart(series([1.5, 1.6, 1.5, 1.4, 1.6, 1.5, 1.7, 1.6, 1.5, 1.6]))).toBeNull();
    expect(saturationStart(series([0.01, 0.01, 0.01, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4]))).toBeNull();
  });

  it('needs enough points and skips values that are not numbers', () => {
    expect(saturationStart(series([0.1, 0.1, 2]))).toBeNull();
    expect(saturationStart(series([0.1, 0.1, 0.1, 0.1, Number.NaN, 0.1, 0.1, 0.1, 0.8]))?.toISOString()).toBe('2026-11-22T02:02:00.000000Z');
  });
});

const T = (minute: number, second = 0): string => new Date(Date.UTC(2026, 10, 22, 2, minute, second)).toISOString();
const points = (from: number, to: number): Array<[string, string]> => Array.from({ length: to - from + 1 }, (_, i) => [T(from + i), '1']);

type Series = { metric: Record<string, string>; values: Array<[string, string]> };

/**
 * A session whose Prometheus answers from a script: `builds` are the build_info series, the
 * rule's expression holds from minute 30 on `errorsOn` (an instance), `restarts` answers the
 * restart query. Like Prometheus, `(expr) and on(instance) build` keeps the condition's series
 * whose instance runs that build. Budgets are generous; runs are numbered as recorded.
 */
function scriptedSession(
  builds: Series[],
  {
    errorsOn = 'api-0',
    restarts = [] as Series[],
    killed = [] as Series[],
    atMemoryLimit = [] as Series[],
    containerRestarts = [] as Series[],
    cpu = [] as Series[],
    traffic = [] as Series[],
    probes = [] as Series[],
    recorded = null as RecordedChange[] | null,
  }: {
    errorsOn?: string | null;
    restarts?: Series[];
    killed?: Series[];
    atMemoryLimit?: Series[];
    containerRestarts?: Series[];
    cpu?: Series[];
    traffic?: Series[];
    probes?: Series[];
    /** The changes changes.near_onset answers (offered only when given). */
    recorded?: RecordedChange[] | null;
  } = {},
): InvestigationSession & { runs: RecordedRun[]; rollouts: ObservedRollout[] } {
  const runs: RecordedRun[] = [];
  const rollouts: ObservedRollout[] = [];
  const errors: Series = { metric: { job: 'api', ...(errorsOn ? { instance: errorsOn } : {}) }, values: points(30, 40) };
  const answer = (call: ToolCall): unknown => {
    const query = String(call.arguments.query ?? '');
    if (call.tool === 'prometheus.alert_rules') return { rules: [{ name: 'HighErrorRate', query: 'rate(errors_total[1m]) > 1' }] };
    // The metrics this Prometheus collects: the checks of any other read nothing.
    if (call.tool === 'prometheus.label_values')
      return {
        values: [
          'errors_total',
          'app_build_info',
          'process_start_time_seconds',
          'process_cpu_seconds_total',
          'prober_probe_total',
          'http_requests_total',
          'kube_pod_container_status_restarts_total',
          'kube_pod_container_status_last_terminated_reason',
          'container_memory_working_set_bytes',
          'up',
        ],
      };
    const joined = /^\(rate\(errors_total\[1m\]\) > 1\) and on\(instance\) (\w+)\{(.*)\}$/.exec(query);
    if (joined) {
      const running = builds.filter(
        (b) => b.metric.__name__ === joined[1] && joined[2].split(', ').every((m) => m === `${m.split('=')[0]}=${JSON.stringify(b.metric[m.split('=')[0]])}`),
      );
      return { stepSeconds: 60, series: running.some((b) => b.metric.instance === errors.metric.instance) ? [errors] : [] };
    }
    if (query.startsWith('rate(errors_total')) return { stepSeconds: 60, series: [errors] };
    if (query.includes('_build_info')) return { stepSeconds: 60, series: builds };
    if (query.includes('process_start_time_seconds')) return { stepSeconds: 60, series: restarts };
    if (query === 'rate(process_cpu_seconds_total{job="api"}[1m])') return { stepSeconds: 60, series: cpu };
    if (query.startsWith('sum by (namespace, pod, container, result) (increase(prober_probe_total{pod=~"api-.+", probe_type="Liveness"'))
      return { stepSeconds: 60, series: probes };
    if (
      query.startsWith('sum by (job, route, handler, path, uri, method, http_route, http_request_method) (rate(') &&
      query.includes('http_requests_total') &&
      query.includes('job="api"')
    )
      return { stepSeconds: 60, series: traffic };
    // The alerts name job "api": its pods are api-<hash>.
    if (query === 'increase(kube_pod_container_status_restarts_total{pod=~"api-.+"}[5m]) > 0') return { stepSeconds: 60, series: containerRestarts };
    if (query.startsWith('kube_pod_container_status_last_terminated_reason{namespace="shop", pod="api-0", reason="OOMKilled"}'))
      return { stepSeconds: 60, series: killed };
    if (query.startsWith('container_memory_working_set_bytes{namespace="shop", pod="api-0", container="api"} / on(namespace, pod, container)'))
      return { stepSeconds: 60, series: atMemoryLimit };
    return { stepSeconds: 60, series: [] };
  };
  return {
    investigationId: '0190a000-0000-7000-8000-000000000001',
    subject: 'What caused it?',
    window: { from: Timestamp.parse(T(0))!, until: Timestamp.parse(T(45))! },
    conversation: null,
    incident: { id: 'i', title: 'HighErrorRate', status: 'open', labels: { alertname: 'HighErrorRate' }, openedAt: Timestamp.parse(T(30))!, resolvedAt: null },
    alerts: [
      {
        fingerprint: 'f',
        status: 'firing',
        labels: { alertname: 'HighErrorRate', job: 'api' },
        annotations: {},
        startsAt: Timestamp.parse(T(30))!,
        endsAt: null,
        generatorUrl: null,
      },
    ],
    sources: [{ integrationId: 'p', type: 'prometheus', name: 'Prometheus', rank: 1, reason: '' }],
    tools: recorded ? [{ name: 'changes.near_onset', description: '', integrationType: null, argumentsSchema: { type: 'object' } }] : [],
    budgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 },
    signal: new AbortController().signal,
    runs,
    rollouts,
    beginTurn: () => undefined,
    recordUsage: async () => undefined,
    progress: async () => undefined,
    updateHypotheses: async () => undefined,
    noteRollout: async (rollout) => {
      rollouts.push(rollout);
      return null;
    },
    noteCalls: async () => undefined,
    runTool: async (call) =>
      recordRun(runs, call, call.tool === 'incident.alert_events' ? [] : call.tool === 'changes.near_onset' ? { changes: recorded ?? [] } : answer(call)),
  };
}

/** 1.0 runs until `oldUntil`, 1.1 from minute 29 (the condition holds from minute 30). */
const rollout = (instance = 'api-0', oldUntil = 29): Series[] => [
  { metric: { __name__: 'app_build_info', job: 'api', instance, version: '1.0' }, values: points(15, oldUntil) },
  { metric: { __name__: 'app_build_info', job: 'api', instance, version: '1.1' }, values: points(Math.min(29, oldUntil), 45) },
];

/** One value per minute from minute `from`: `usual` until `jumpAt`, then `high`. */
const level = (from: number, to: number, jumpAt: number, usual: number, high: number): Array<[string, string]> =>
  Array.from({ length: to - from + 1 }, (_, i) => [T(from + i), String(from + i < jumpAt ? usual : high)]);

describe('BuiltInReasoner', () => {
  it('names a new version as the verified cause when the condition holds on the instances running it', async () => {
    const session = scriptedSession(rollout());
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    const cause = conclusion.findings.find((f) => f.kind === 'cause')!;
    expect(cause.statement).toContain('version="1.1"');
    const mechanism = session.runs.find((r) => String(r.arguments.query).includes('and on(instance)'))!;
    expect(mechanism.arguments.query).toBe('(rate(errors_total[1m]) > 1) and on(instance) app_build_info{job="api", version="1.1"}');
    expect(mechanism.hypothesisId).toBe(cause.hypothesisId);
    expect(cause.runRefs).toContain(mechanism.ordinal);
    expect(cause.verification).toEqual({
      causeAt: expect.any(String),
      onsetAt: '2026-11-22T02:30:00.000000Z',
      mechanismRunRefs: [mechanism.ordinal],
      unexplained: [],
    });
    expect(conclusion.limitations).toEqual([]);
  });

  it('hands the new version back as a rollout seen in its build series, with the version it replaced', async () => {
    const session = scriptedSession(rollout());
    await new BuiltInReasoner().investigate(session);
    const builds = session.runs.find((r) => String(r.arguments.query).includes('_build_info'))!;
    expect(session.rollouts).toEqual([
      {
        run: builds,
        at: Timestamp.parse(T(28))!,
        seenIn: 'prometheus',
        program: 'api',
        namespace: null,
        versionBefore: '1.0',
        versionAfter: '1.1',
        labels: { __name__: 'app_build_info', job: 'api', instance: 'api-0', version: '1.1' },
      },
    ]);
  });

  it("hands a container's new image back as a rollout seen in kube-state-metrics", async () => {
    const image = (tag: string, from: number, to: number): Series => ({
      metric: { __name__: 'kube_pod_container_info', namespace: 'shop', pod: `api-${tag}`, container: 'api', image: `registry.example.com/api:${tag}` },
      values: points(from, to),
    });
    const session = scriptedSession([image('1.0', 15, 29), image('1.1', 29, 45)]);
    await new BuiltInReasoner().investigate(session);
    expect(session.rollouts).toEqual([
      expect.objectContaining({
        seenIn: 'kubernetes',
        program: 'api',
        namespace: 'shop',
        versionBefore: 'registry.example.com/api:1.0',
        versionAfter: 'registry.example.com/api:1.1',
      }),
    ]);
  });

  it("takes the rollout an earlier investigation recorded for the new build itself, and a dependency's deploy beside it for a change of its own", async () => {
    const change = (id: string, minute: number, fields: Partial<RecordedChange>): RecordedChange => ({
      id,
      occurredAt: T(minute),
      minutesBeforeOnset: 30 - minute,
      kind: 'deploy',
      service: 'api',
      environment: null,
      summary: `Change ${id}`,
      author: null,
      versionBefore: null,
      versionAfter: null,
      source: 'generic',
      links: [],
      ...fields,
    });
    const session = scriptedSession(rollout(), {
      recorded: [
        change('0190a000-0000-7000-8000-00000000000a', 27, {
          source: 'prometheus',
          versionBefore: '1.0',
          versionAfter: '1.1',
          summary: 'api started 1.1 (was 1.0), seen in its *_build_info series',
        }),
        change('0190a000-0000-7000-8000-00000000000b', 28, { service: 'ledger', onDependency: true, summary: 'Deployed ledger 7' }),
      ],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    // Not recorded again, not a report of itself: the build names the recorded rollout.
    expect(session.rollouts).toEqual([]);
    const build = conclusion.hypotheses.find((h) => h.id === 'h-version')!;
    expect(conclusion.plot?.changes.find((c) => c.summary === build.statement)?.changeId).toBe('0190a000-0000-7000-8000-00000000000a');
    expect(JSON.stringify(conclusion)).not.toMatch(/reported as|earlier investigation/);
    // The dependency's deploy near the build is not taken for its report.
    expect(conclusion.hypotheses.map((h) => h.statement)).toContainEqual(expect.stringMatching(/^The deploy "Deployed ledger 7" on ledger at /));
    expect(conclusion.plot?.changes.map((c) => c.changeId)).toContain('0190a000-0000-7000-8000-00000000000b');
  });

  it('hands back no rollout when the build read shows none', async () => {
    const session = scriptedSession([{ metric: { __name__: 'app_build_info', job: 'api', instance: 'api-0', version: '1.0' }, values: points(0, 45) }]);
    await new BuiltInReasoner().investigate(session);
    expect(session.rollouts).toEqual([]);
  });

  it('rules out a new version that served alone for minutes before the condition began, saying so', async () => {
    const session = scriptedSession(rollout('api-0', 24));
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('inconclusive');
    expect(conclusion.hypotheses.map((h) => [h.id, h.status])).toEqual([['h-version', 'refuted']]);
    expect(conclusion.findings.find((f) => f.kind === 'ruled_out')?.statement).toBe(
      'Not the cause: The new build (version="1.1") that started at 2026-11-22T02:23:00.000000Z caused the alert\'s condition (the new build served alone from 2026-11-22T02:24:00.000000Z, 6 min before the condition began, without it)',
    );
  });

  it('keeps a new version that preceded the condition a supported explanation when the condition is not on its instances', async () => {
    const session = scriptedSession(rollout('api-1'), { errorsOn: 'api-0' });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toContain('version="1.1"');
    expect(conclusion.summary).toContain('is not verified as its cause');
    expect(conclusion.limitations.map((l) => l.statement)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('could not be tied to the replicas running the new build'),
        expect.stringContaining('no query tested the mechanism'),
      ]),
    );
  });

  const restart: Series = { metric: { job: 'api', instance: '10.0.0.7:8080', namespace: 'shop', pod: 'api-0' }, values: points(29, 33) };

  it('asks why a process restarted: an out-of-memory kill with the working set at the limit is the verified cause', async () => {
    const session = scriptedSession([], {
      restarts: [restart],
      killed: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api', reason: 'OOMKilled' }, values: points(29, 33) }],
      atMemoryLimit: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api' }, values: points(24, 28) }],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    const cause = conclusion.findings.find((f) => f.kind === 'cause')!;
    expect(cause.statement).toContain('OOMKilled');
    expect(cause.statement).toContain('container api in pod api-0');
    expect(cause.mechanism).toContain('reached 90% or more of its memory limit from 2026-11-22T02:24:00.000000Z');
    const why = session.runs.filter((r) => r.hypothesisId === 'h-restart' && /OOMKilled|memory_limit/.test(String(r.arguments.query)));
    expect(why).toHaveLength(2);
    expect(cause.verification?.mechanismRunRefs).toEqual(why.map((r) => r.ordinal));
    expect(conclusion.summary).toMatch(/^The out-of-memory kill \(OOMKilled\) of container api in pod api-0, restarted at .* is the cause/);
    expect(conclusion.limitations.map((l) => l.statement)).toEqual([
      'No *_build_info metric and no kube_pod_container_info of the alerting pods: deployments could not be seen in the metrics',
    ]);
  });

  it("finds a container restart in Kubernetes' own count, by the pods named after the alerting workload, and asks why", async () => {
    const session = scriptedSession([], {
      containerRestarts: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api' }, values: points(29, 33) }],
      killed: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api', reason: 'OOMKilled' }, values: points(29, 33) }],
      atMemoryLimit: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api' }, values: points(24, 28) }],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    const restarts = session.runs.find((r) => String(r.arguments.query).startsWith('increase(kube_pod_container_status_restarts_total'))!;
    expect(conclusion.hypotheses.find((h) => h.id === 'h-restart')?.runRefs[0]).toBe(restarts.ordinal);
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toContain('container api in pod api-0');
  });

  const saturatedCpu: Series = { metric: { job: 'api', instance: 'api-0:8080' }, values: level(15, 45, 29, 0.1, 1.8) };

  it('asks why the CPU saturated: a surge on one route just before it is the verified cause, named with its rates', async () => {
    const session = scriptedSession([], {
      cpu: [saturatedCpu],
      traffic: [
        { metric: { job: 'api', route: '/search', method: 'GET' }, values: level(15, 45, 28, 20, 180) },
        { metric: { job: 'api', route: '/login', method: 'POST' }, values: level(15, 45, 28, 5, 5) },
      ],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    const cause = conclusion.findings.find((f) => f.kind === 'cause')!;
    expect(cause.statement).toBe(
      "A surge of traffic on GET /search of api from 2026-11-22T02:28:00.000000Z (20 to 180 requests/s), which saturated the CPU of api-0:8080, caused the alert's condition",
    );
    // The surge detector saw the surge too; asking why the CPU saturated tied it to the saturation.
    expect(conclusion.hypotheses.find((h) => h.id === 'h-surge')?.status).toBe('supported');
    const traffic = session.runs.find((r) => String(r.arguments.query).startsWith('sum by (job, route') && r.hypothesisId === 'h-cpu')!;
    expect(traffic).toBeDefined();
    expect(cause.verification?.mechanismRunRefs).toEqual([traffic.ordinal]);
  });

  it('keeps CPU saturation a supported explanation when the traffic was steady, saying what remains', async () => {
    const session = scriptedSession([], { cpu: [saturatedCpu], traffic: [{ metric: { job: 'api', route: '/search' }, values: level(15, 45, 28, 20, 22) }] });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toContain('CPU saturation of api-0:8080');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show what drove the CPU use of api-0:8080 up (its traffic did not jump; a new version or a change inside the process remain)',
    );
  });

  it('says no new version drove the CPU up when the build read showed the same version all along, citing that read', async () => {
    const steadyBuild: Series = { metric: { __name__: 'app_build_info', job: 'api', instance: 'api-0', version: '1.0' }, values: points(0, 45) };
    const session = scriptedSession([steadyBuild], {
      cpu: [saturatedCpu],
      traffic: [{ metric: { job: 'api', route: '/search' }, values: level(15, 45, 28, 20, 22) }],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show what drove the CPU use of api-0:8080 up (its traffic did not jump and no new version started near the onset; a change inside the process, such as its configuration or the work it was given, remains)',
    );
    const buildRead = session.runs.find((r) => String(r.arguments.query).includes('_build_info'))!;
    expect(conclusion.hypotheses.find((h) => h.id === 'h-cpu')?.runRefs).toContain(buildRead.ordinal);
  });

  it('names the out-of-memory kill but does not verify it when the memory against its limit cannot be read', async () => {
    const session = scriptedSession([], {
      restarts: [restart],
      killed: [{ metric: { namespace: 'shop', pod: 'api-0', container: 'api', reason: 'OOMKilled' }, values: points(29, 33) }],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toContain('OOMKilled');
    expect(conclusion.limitations.map((l) => l.statement)).toEqual(expect.arrayContaining([expect.stringContaining('could not be read')]));
  });

  it('never verifies a restart whose own cause the data does not show: a proximate event is a supported explanation', async () => {
    const session = scriptedSession([], { restarts: [restart] });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.hypotheses.map((h) => [h.id, h.status])).toEqual([['h-restart', 'supported']]);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.verification?.unexplained).toEqual([expect.stringContaining('why api-0 restarted')]);
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show why api-0 restarted (no container of it was killed for running out of memory; a crash after a configuration change or a failing liveness probe remain)',
    );
    expect(conclusion.summary).toContain('the data does not show why api-0 restarted');
  });

  it('takes a restart after failing liveness probes into that chain: the probe failure is the explanation, its own cause unknown', async () => {
    const container = { namespace: 'shop', pod: 'api-0', container: 'api' };
    const session = scriptedSession([], {
      containerRestarts: [{ metric: container, values: points(29, 33) }],
      probes: [
        { metric: { ...container, result: 'failed' }, values: points(28, 33) },
        { metric: container, values: points(29, 33) },
      ],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    // The restart is a step of the liveness chain, not a hypothesis of its own.
    expect(conclusion.hypotheses.map((h) => [h.id, h.status])).toEqual([['h-liveness', 'supported']]);
    expect(conclusion.findings.find((f) => f.kind === 'cause')?.statement).toBe(
      "Failing liveness probes of api from 2026-11-22T02:28:00.000000Z, which got its containers restarted, caused the alert's condition",
    );
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show why the liveness probe of api failed (no slow or failing dependency, CPU throttling or starved node was seen before it)',
    );
  });

  it("says a restarted pod's liveness probe did not fail when the detector read it passing", async () => {
    const container = { namespace: 'shop', pod: 'api-0', container: 'api' };
    const session = scriptedSession([], {
      containerRestarts: [{ metric: container, values: points(29, 33) }],
      probes: [{ metric: { ...container, result: 'successful' }, values: points(10, 33) }],
    });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      'Not verified: the data does not show why api-0 restarted (no container of it was killed for running out of memory, and its liveness probe did not fail; a crash after a configuration change remains)',
    );
    const probes = session.runs.find((r) => String(r.arguments.query).includes('prober_probe_total'))!;
    expect(conclusion.hypotheses.find((h) => h.id === 'h-restart')?.runRefs).toContain(probes.ordinal);
  });

  it('says why it could not ask about a restart whose series has no pod', async () => {
    const session = scriptedSession([], { restarts: [{ metric: { job: 'api', instance: 'api-0' }, values: points(29, 33) }] });
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(session.runs.some((r) => String(r.arguments.query).includes('OOMKilled'))).toBe(false);
    expect(conclusion.limitations.map((l) => l.statement)).toEqual(
      expect.arrayContaining([expect.stringContaining('has no pod label'), expect.stringContaining('the data does not show why the process restarted')]),
    );
  });

  it('does not take the start of the data (a build series with no predecessor) for a deployment', async () => {
    const session = scriptedSession([{ metric: { __name__: 'app_build_info', job: 'api', version: '1.1' }, values: points(28, 45) }]);
    const conclusion = await new BuiltInReasoner().investigate(session);
    expect(conclusion.conclusionStatus).toBe('inconclusive');
    expect(conclusion.findings.some((f) => f.kind === 'cause')).toBe(false);
    expect(conclusion.hypotheses).toEqual([]);
  });
});
