import { afterAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, score, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';
import { meshRule as rule, meshScenario as scenario } from '../support/mesh-scenario';
import { dependentScenario } from '../support/dependent-scenario';
import { nodeScenario } from '../support/node-scenario';

/**
 * The built-in reasoner on telemetry it has no detector for: the alert's entity found by label
 * value, the series that name it discovered and read by what they measure, and the earliest
 * strong change ranked first, against a real Prometheus.
 */
describe('changes ranked on series of an unknown convention', () => {
  let staged: StagedPrometheus | undefined;
  let stagedNode: StagedPrometheus | undefined;
  let stagedDependent: StagedPrometheus | undefined;

  afterAll(async () => {
    await staged?.stop();
    await stagedNode?.stop();
    await stagedDependent?.stop();
  });

  it('names the peer whose failures its callers suffer from, as a supported explanation whose mechanism is untested', async () => {
    staged = await stagePrometheus(scenario);
    const [page] = await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end);
    expect(page).toBeDefined();
    const session = directSession(staged.prometheus.url, page, []);
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    const result = score(scenario, { id: session.investigationId, status: 'concluded', ...conclusion, runs: session.runs }, 0, []);

    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    // checkout's calls to inventory fail as inventory's own answers do: the walk goes down to inventory.
    expect(cause?.statement).toMatch(/^A rise of the failure ratio of inventory \(mesh_requests_total\) from 0\.1% to 60% from /);
    expect(cause?.mechanism).toMatch(/^checkout waits on inventory: .*; checkout changed with it or after it, waiting on it or sharing its node; ranked 1 of /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    // Ranked, not recognised: never verified.
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement)).toContain(
      "Not verified: the data does not show how the rise of the failure ratio of inventory (mesh_requests_total) produced the alert's condition (no explainer recognises this change, so its mechanism is untested)",
    );
    // Found by label value: no query named the mesh's metric before the series that name checkout were listed.
    const first = session.runs.findIndex((r) => String(r.arguments.query ?? '').includes('count by (__name__)'));
    expect(first).toBeGreaterThan(0);
    expect(session.runs.slice(0, first).some((r) => String(r.arguments.query ?? '').includes('mesh_requests_total{reporter="source"'))).toBe(false);
    expect(session.runs.length).toBeLessThanOrEqual(DEFAULT_BUDGETS.toolRuns);
  }, 120_000);

  it("ranks the changes on the node the alerting service's pods run on: a counter no explainer reads", async () => {
    stagedNode = await stagePrometheus(nodeScenario);
    const [page] = await deriveAlerts(stagedNode.prometheus.url, nodeScenario.rule, stagedNode.start, stagedNode.end);
    expect(page).toBeDefined();
    const session = directSession(stagedNode.prometheus.url, page, []);
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const sick = nodeScenario.build(stagedNode.end).workload('checkout').pods[0].node.name;
    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    expect(cause?.statement).toMatch(/^A rise of .*node_network_receive_drop_total/);
    expect(cause?.statement).toContain(sick);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    // The node came from where checkout's pods run, read with the services it calls.
    const placed = session.runs.find((r) => String(r.arguments.query ?? '').includes('kube_pod_info{namespace="shop", pod=~"(checkout)-.+"}'));
    expect(placed).toBeDefined();
    expect(session.runs.length).toBeLessThanOrEqual(DEFAULT_BUDGETS.toolRuns);
  }, 120_000);

  it('reads the failures of what calls the alerting service as consequences, not causes, and says which checks had no series', async () => {
    stagedDependent = await stagePrometheus(dependentScenario);
    const [page] = await deriveAlerts(stagedDependent.prometheus.url, dependentScenario.rule, stagedDependent.start, stagedDependent.end);
    expect(page).toBeDefined();
    // Every standard exporter is there and every check reads something: the namespace takes more runs than the default 24 leave.
    const session = directSession(stagedDependent.prometheus.url, page, [], { ...DEFAULT_BUDGETS, toolRuns: 32 });
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    // frontend's own failures rose to 95% a minute after the Redis began to reject: frontend calls
    // cart, so they are a consequence, not a hypothesis.
    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    expect(cause?.statement).toMatch(/^A rise of .*redis_rejected_connections_total/);
    expect(conclusion.hypotheses.map((h) => h.statement).join('\n')).not.toMatch(/of frontend \(http_requests_total\)/);
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    // The checks whose metrics this cluster does not collect read nothing, and the conclusion says so.
    const listed = session.runs.find((r) => r.tool === 'prometheus.label_values' && r.arguments.label === '__name__');
    expect(listed?.output).toMatchObject({ values: expect.arrayContaining(['http_requests_total', 'up']) });
    expect(session.runs.some((r) => String(r.arguments.query ?? '').includes('hikaricp_connections_active'))).toBe(false);
    expect(conclusion.limitations).toContainEqual(
      expect.objectContaining({
        type: 'missing_telemetry',
        statement: expect.stringMatching(/^Not looked for, as none of the metrics they read has series in the window: .*connection pool/),
        runRefs: [listed!.ordinal],
      }),
    );
  }, 120_000);
});
