import { afterAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { loadDataset } from '../../eval/nezha/dataset';
import { dayAlerts, stageFault, StagedFault } from '../../eval/nezha/replay';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';

/**
 * The built-in reasoner placing the alerting service in the call graph that trace-derived service
 * graph metrics show, on a recorded network delay (Nezha TrainTicket, 2023-01-30 13:44, injected on
 * ts-route-service): the recorded metrics and the traces' edges up to the page, backfilled into a
 * real Prometheus.
 */
describe('where the calls lose their time, on a recorded network delay', () => {
  const dataset = loadDataset();
  let staging: StagedFault | null = null;

  afterAll(async () => {
    await staging?.staged.stop();
  });

  it('names the callee whose callers wait far longer than it handles their calls, and the services waiting on it as consequences', async () => {
    const fault = dataset.faults.find((f) => f.id === '2023-01-30-1344-ts-route-service')!;
    const alerts = await dayAlerts(
      dataset,
      dataset.days.find((d) => d.day === fault.day)!,
    );
    staging = await stageFault(dataset, fault, alerts);
    expect(staging).not.toBeNull();
    // The page is ts-basic-service's latency: it calls ts-route-service, and nothing on ts-route-service's own series moved.
    expect(staging!.page.labels.service).toBe('ts-basic-service');
    const session = directSession(staging!.staged.prometheus.url, staging!.page, staging!.others);
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    expect(cause?.statement).toMatch(/^A delay of 1\.\d+ s per call to ts-route-service, lost between its callers and it, from /);
    expect(cause?.mechanism).toContain('traces_service_graph_request_client_seconds, traces_service_graph_request_server_seconds');
    // Read from the graph, not recognised by an explainer: its mechanism is untested, never verified.
    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations.map((l) => l.statement).join('\n')).toContain("what delays the calls between ts-route-service's callers and it");
    const consequence = conclusion.findings.find((f) => f.kind === 'symptom' && f.statement.includes('wait'));
    expect(consequence?.statement).toMatch(/^ts-basic-service(, [a-z0-9-]+)* waits? on ts-route-service: .*consequence/);
    // The cause cites the read of the graph, which shows both sides of the calls.
    const graphRun = session.runs.find((r) => String(r.arguments.query ?? '').includes('traces_service_graph_request_server_seconds_sum'));
    expect(graphRun).toBeDefined();
    expect(cause?.runRefs).toContain(graphRun!.ordinal);
    expect(session.runs.length).toBeLessThanOrEqual(DEFAULT_BUDGETS.toolRuns);
  }, 180_000);
});
