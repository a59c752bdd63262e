import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenario, ScenarioResult } from '../../eval/harness';
import { ALL_SCENARIOS } from '../../eval/suites';
import { Client } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

/**
 * Nine of the evaluation's generated incidents (seven of the own suite, eval/scenarios.ts, two of
 * them with changes reported to a changes integration; two of conventions-dev,
 * eval/convention-scenarios.ts), each with three hours of kube-prometheus data backfilled into a real Prometheus, its alerts delivered to the webhook as
 * Alertmanager would, and an investigation worked by the real worker with the built-in reasoner,
 * each scenario in an Organization of its own.
 * Only what the reasoner reliably gets right is asserted; `npm run eval` scores them all.
 */
describe('the reasoner on generated incidents', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker;

  beforeAll(async () => {
    // The first e2e file to start a process builds dist/.
    worker = await startWorker();
  }, 240_000);

  afterAll(async () => {
    await worker?.close();
  });

  /** Each scenario runs in an Organization of its own (see runScenario): requests name it. */
  const inOrganization = (organizationId: string | undefined) => ({ headers: { 'x-svc-organization': organizationId! } });

  /** The changes on the incident's timeline that no delivery brought: rollouts investigations saw. */
  const observedOn = async (incidentId: string, organizationId: string | undefined): Promise<any[]> =>
    (await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes`, inOrganization(organizationId))).body.items.filter((c: any) => c.deliveryId === null);

  const investigate = (name: string, afterwards?: (incidentId: string, organizationId?: string) => Promise<void>): Promise<ScenarioResult> =>
    runScenario(
      ctx.admin,
      ALL_SCENARIOS.find((s) => s.name === name)!,
      {
        baseUrl: ctx.api.baseUrl,
        ended: (id, organizationId) => investigationEnded(ctx.admin, id, { timeoutMs: 60_000, ...inOrganization(organizationId) }),
        afterwards,
      },
    );

  it('names the bad version of a rollout as the cause, citing the runs that read the builds, and puts the rollout on the timeline once', async () => {
    let timeline: { first: any[]; second: any; again: any[] } | undefined;
    const result = await investigate('checkout-bad-version', async (incidentId, organizationId) => {
      // Investigated again while Prometheus still serves it: the same rollout is the same change.
      const first = await observedOn(incidentId, organizationId);
      const again = await ctx.admin.post('/api/v1/investigations', { incidentId }, inOrganization(organizationId));
      expect(again.status).toBe(201);
      timeline = {
        first,
        second: await investigationEnded(ctx.admin, again.body.id, { timeoutMs: 60_000, ...inOrganization(organizationId) }),
        again: await observedOn(incidentId, organizationId),
      };
    });
    expect(result.status).toBe('concluded');
    expect(result.conclusionStatus).toBe('verified_cause');
    expect(result.cause).toContain('2.15.0');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.falseConfidence).toBe(false);

    // The rollout no deploy tool reported is on the incident's timeline, seen by the first investigation.
    const { first, second, again } = timeline!;
    expect(first).toEqual([
      expect.objectContaining({
        source: 'prometheus',
        kind: 'deploy',
        service: 'checkout',
        versionAfter: expect.stringContaining('2.15.0'),
        versionBefore: expect.any(String),
        investigationId: result.investigationId,
        integrationId: expect.any(String),
      }),
    ]);
    expect(first[0].summary).toMatch(/^checkout started .*2\.15\.0.* \(was .*\), seen in its \*_build_info series$/);
    expect((await ctx.admin.get(`/api/v1/changes/${first[0].id}`, inOrganization(result.organizationId))).body.externalId).toBe(
      `prometheus:shop/checkout:${first[0].versionAfter}`,
    );
    // The second investigation names the new build as the cause again, not a report of itself, and records nothing new.
    expect(second.status).toBe('concluded');
    expect(second.findings.find((f: any) => f.kind === 'cause')?.statement).toContain('2.15.0');
    expect(JSON.stringify([second.findings, second.hypotheses])).not.toMatch(/reported as|earlier investigation/);
    expect(again).toEqual(first);
  }, 180_000);

  it('names the ConfigMap edit behind a crash loop as the verified cause', async () => {
    const result = await investigate('cart-config-crashloop');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.alerts).toEqual(['KubePodCrashLooping']);
    expect(result.conclusionStatus).toBe('verified_cause');
    expect(result.cause).toContain('ConfigMap cart-config');
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.falseConfidence).toBe(false);
  }, 120_000);

  it('names the dependency that went down, not the harmless rollout before it, without claiming why it went down', async () => {
    const result = await investigate('inventory-down-harmless-rollout');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.alerts).toEqual(['CheckoutHighErrorRate']);
    expect(result.cause).toMatch(/^inventory, which checkout calls, went down at /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.falseConfidence).toBe(false);
    expect(result.conclusionStatus).toBe('supported_explanation');
  }, 120_000);

  it('names a noisy neighbour that starved the alerting pods on its node, verified by the condition on those pods only', async () => {
    const result = await investigate('search-noisy-neighbour');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.cause).toMatch(/^video-transcode-.* \(video-transcode\), whose CPU use burst to .* on node ip-10-0-2-34\.eu-west-1\.compute\.internal /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.conclusionStatus).toBe('verified_cause');
  }, 120_000);

  it('names an expired certificate of a dependency, investigating the page rather than the chronic alert delivered first', async () => {
    const result = await investigate('partner-bank-certificate-expired');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.alerts).toEqual(['CPUThrottlingHigh', 'PaymentsHighErrorRate']);
    expect(result.cause).toMatch(/^The TLS certificate of partner-bank /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.conclusionStatus).toBe('verified_cause');
  }, 120_000);

  it('names a surge of traffic from the request counters of another instrumentation library (Python, no kube_pod_info)', async () => {
    const result = await investigate('search-traffic-surge-python-instrumentator');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.cause).toMatch(/^A surge of traffic on GET \/api\/search of search from /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.conclusionStatus).toBe('verified_cause');
  }, 120_000);

  it('finds a lowered CPU limit for an alert that names its service the OpenTelemetry way, with no job label', async () => {
    const result = await investigate('search-cpu-throttled-opentelemetry');
    expect(result.error).toBeNull();
    expect(result.status).toBe('concluded');
    expect(result.cause).toMatch(/^The CPU limit of search, lowered from 2\.0 to 0\.5 cores at .*, throttled its containers/);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    expect(result.conclusionStatus).toBe('verified_cause');
    expect(result.falseConfidence).toBe(false);
  }, 120_000);
  it('names the faulty release of a release train on a service below the paged one, read with the changes of what it calls, not the harmless releases beside it', async () => {
    const result = await investigate('payments-release-train');
    expect(result.error).toBeNull();
    expect(result.cause).toMatch(
      /^The deploy "Deployed payments [\d.]+" \(\S+\) on payments by \S+ at .*, followed by a rise of the failure ratio of payments /,
    );
    expect(result.top1).toBe(true);
    // Never more than supported: no run tied the failures to the new version's replicas.
    expect(result.conclusionStatus).toBe('supported_explanation');
  }, 120_000);

  it('names a reported configuration change, which the metrics do not show, as the verified cause, and lists it, with its author, when asked what changed', async () => {
    let answer: { status: string; answer: string } | undefined;
    const result = await investigate('billing-timeout-config-change', async (incidentId, organizationId) => {
      const opened = await ctx.admin.post(
        '/api/v1/conversations',
        { subject: 'Billing', incidentId, message: 'what changed?' },
        inOrganization(organizationId),
      );
      expect(opened.status).toBe(201);
      answer = await until(
        async () => {
          const res = await ctx.admin.get(`/api/v1/conversations/${opened.body.id}/turns?limit=200`, inOrganization(organizationId));
          const found = res.body.turns.find((t: { turn: number }) => t.turn === 1);
          return found && ['concluded', 'partial', 'failed', 'needs_input'].includes(found.status) ? found : undefined;
        },
        60_000,
        'the turn asking what changed to end',
      );
    });
    expect(result.error).toBeNull();
    expect(result.conclusionStatus).toBe('verified_cause');
    expect(result.cause).toContain('billing: ledger client timeout 2s -> 150ms');
    expect(result.cause).toMatch(/^The configuration change .* by grace at /);
    expect(result.top1).toBe(true);
    expect(result.grounded).toBe(true);
    // The metrics show no change; the configuration tool's report is listed, as it names itself.
    expect(answer!.status).toBe('concluded');
    expect(answer!.answer).toMatch(
      /^The last change before the first alert: Reported: The configuration change "billing: ledger client timeout 2s -> 150ms" \((?:\S+\/)?cfg-8841\) on billing by grace.*; 1 change in namespace \S+ from .* to /,
    );
  }, 120_000);

  it('rules out a reported deploy that was in place long before the condition began, names the dependency that went down, and reads its changes from then on', async () => {
    let after: { view: any; reported: any; second: any } | undefined;
    const result = await investigate('archive-down-reported-deploy-red-herring', async (incidentId, organizationId) => {
      // The investigation saw statements call archive: the incident's changes include archive's.
      const view = (await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes`, inOrganization(organizationId))).body;
      const deploys = await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Archive deploys' }, inOrganization(organizationId));
      const firstAlertAt = Date.parse(view.window.from) + 3600_000;
      const reported = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${deploys.body.id}/change-events`, {
        body: {
          id: 'archive-config-77',
          summary: 'archive: storage quota 2 TiB -> 200 GiB',
          kind: 'config',
          service: 'Archive',
          timestamp: new Date(firstAlertAt - 20 * 60_000).toISOString(),
        },
        headers: { 'x-svc-token': deploys.body.webhookSecret },
        origin: false,
      });
      expect(reported.status).toBe(202);
      const again = await ctx.admin.post('/api/v1/investigations', { incidentId }, inOrganization(organizationId));
      const second = await investigationEnded(ctx.admin, again.body.id, { timeoutMs: 60_000, ...inOrganization(organizationId) });
      after = { view: (await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes`, inOrganization(organizationId))).body, reported: reported.body, second };
      expect(view.dependencies).toEqual(['archive']);
    });
    expect(result.error).toBeNull();
    expect(result.cause).toMatch(/^archive, which statements calls, went down/);
    expect(result.top1).toBe(true);
    expect(result.falseConfidence).toBe(false);

    const { view, reported, second } = after!;
    expect(view.services).toEqual(['statements']);
    expect(view.dependencies).toEqual(['archive']);
    expect(view.items.map((c: any) => c.id)).toContain(reported.changeIds[0]);
    // The next investigation reads what statements calls too, and weighs archive's change as a candidate.
    const read = second.runs.find((r: any) => r.tool === 'changes.near_onset');
    expect(read.summary).toMatch(/ on statements, what they call \(archive\) or naming no service /);
    expect(second.hypotheses.map((h: any) => h.statement)).toContainEqual(
      expect.stringMatching(/^The configuration change "archive: storage quota 2 TiB -> 200 GiB" \(archive-config-77\) on Archive at /),
    );
  }, 180_000);
});
