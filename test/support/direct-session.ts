import { randomUUID } from 'node:crypto';
import { Timestamp } from '@svc/platform';
import type { ChangeView } from '@svc/changes';
import type { Budgets, HypothesisItem, InvestigationSession, RecordedRun, SessionTool, ToolCall } from '@svc/investigations';
import { BudgetExhausted, ToolCatalog } from '@svc/investigations';
import { CHANGES_NEAR_ONSET_TOOL, ChangeReader, runChangesNearOnsetTool } from '@svc/investigations/engine';
import { DerivedAlert, notifications } from '../../eval/harness';
import type { ReportedChange } from '../../eval/scenarios';

/** The default budgets of an Organization's policy. */
export const DEFAULT_BUDGETS: Budgets = { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000 };

/**
 * An investigation session over a real Prometheus without the API and worker around it (or a
 * conversation turn about its incident, when `asked` gives the message and the earlier ones): the tools
 * run through the ToolCatalog (the same validation and reads as the worker's), runs are numbered
 * as recorded, and the tool-run and turn budgets are enforced as the worker enforces them. The
 * alerts are those Alertmanager would have delivered for `page`'s group up to the moment it fired.
 */
export function directSession(
  prometheusUrl: string,
  page: DerivedAlert,
  others: DerivedAlert[],
  budgets: Budgets = DEFAULT_BUDGETS,
  asked?: { message: string; earlier?: string[]; answers?: string[] },
  /** A Loki beside the Prometheus: its logs are a second source. */
  loki?: { url: string },
  /** A Kubernetes API server (plain HTTP, a bearer token): the cluster is a source too. */
  kubernetes?: { url: string; token: string },
  /** Changes deploy and configuration tools reported: changes.near_onset reads them, as the worker reads the recorded ones. */
  changes: ReportedChange[] = [],
): InvestigationSession & { runs: RecordedRun[]; hypotheses: HypothesisItem[] } {
  const catalog = new ToolCatalog();
  const integrationId = randomUUID();
  const lokiId = randomUUID();
  const kubernetesId = randomUUID();
  const runs: RecordedRun[] = [];
  const sent = notifications(page, others) as Array<{
    alerts: Array<{ status: string; labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; fingerprint: string }>;
  }>;
  const latest = new Map<string, InvestigationSession['alerts'][number]>();
  for (const n of sent)
    for (const a of n.alerts)
      latest.set(a.fingerprint, {
        fingerprint: a.fingerprint,
        status: a.status as 'firing' | 'resolved',
        labels: a.labels,
        annotations: a.annotations,
        startsAt: Timestamp.parse(a.startsAt)!,
        endsAt: null,
        generatorUrl: null,
      });
  const alerts = [...latest.values()].sort((a, b) => (a.startsAt.isAfter(b.startsAt) ? 1 : -1));
  const openedAt = alerts[0].startsAt;
  const now = Timestamp.now();
  const window = { from: Timestamp.fromEpochMicros(openedAt.epochMicros - 3_600_000_000n), until: now };
  let turns = 0;
  let stagnant = 0;
  let evidenceAtLastTurn = 0;
  const session = {
    investigationId: randomUUID(),
    subject: asked?.message ?? `Incident ${page.labels.alertname}`,
    window,
    incident: { id: randomUUID(), title: page.labels.alertname, status: 'open', labels: {}, openedAt, resolvedAt: null },
    // A conversation turn about the incident: the message asked, after the earlier user messages.
    conversation: asked
      ? {
          conversationId: randomUUID(),
          turn: (asked.earlier?.length ?? 0) + 1,
          messageSequence: (asked.earlier?.length ?? 0) * 2 + 1,
          messages: (asked.earlier ?? []).map((text, i) => ({ sequence: i * 2 + 1, role: 'user' as const, text, at: now.toISOString() })),
          // The earlier turns' answers, in order.
          turns: (asked.answers ?? []).map((summary, i) => ({
            turn: i + 1,
            investigationId: randomUUID(),
            status: 'concluded',
            conclusionStatus: null,
            summary,
            findings: [],
          })),
          droppedMessageSequences: [],
          droppedTurns: [],
        }
      : null,
    alerts,
    sources: [
      { integrationId, type: 'prometheus' as const, name: 'Prometheus', rank: 1, reason: 'the metrics' },
      ...(loki ? [{ integrationId: lokiId, type: 'loki' as const, name: 'Loki', rank: 2, reason: 'the logs' }] : []),
      ...(kubernetes ? [{ integrationId: kubernetesId, type: 'kubernetes' as const, name: 'Cluster', rank: 3, reason: 'the cluster' }] : []),
    ],
    tools: [...catalog.list().map((t) => ({ ...t })), ...(changes.length ? [CHANGES_NEAR_ONSET_TOOL] : [])] as SessionTool[],
    budgets,
    signal: new AbortController().signal,
    runs,
    hypotheses: [] as HypothesisItem[],
    beginTurn() {
      if (turns >= budgets.reasonerTurns) throw new BudgetExhausted('reasoner_turns', `Stopped after ${turns} reasoner turns (the budget)`);
      const evidence = runs.filter((r) => r.outcome === 'succeeded').length;
      stagnant = evidence === evidenceAtLastTurn ? stagnant + 1 : 0;
      if (stagnant >= budgets.stagnationTurns) throw new BudgetExhausted('reasoner_turns', 'stagnation');
      evidenceAtLastTurn = evidence;
      turns += 1;
    },
    async runTool(call: ToolCall): Promise<RecordedRun> {
      if (runs.length >= budgets.toolRuns) throw new BudgetExhausted('tool_runs', `Stopped after ${runs.length} tool runs (the budget)`);
      const ordinal = runs.length + 1;
      const record = (r: Omit<RecordedRun, 'ordinal' | 'tool' | 'integrationId' | 'arguments' | 'purpose' | 'hypothesisId'>): RecordedRun => {
        const run: RecordedRun = {
          ordinal,
          tool: call.tool,
          integrationId: call.integrationId,
          arguments: call.arguments,
          purpose: call.purpose,
          hypothesisId: call.hypothesisId ?? null,
          ...r,
        };
        runs.push(run);
        return run;
      };
      if (call.tool === 'incident.alert_events')
        return record({ outcome: 'succeeded', summary: `${alerts.length} alert(s)`, output: { alerts }, truncated: false, error: null, window: null });
      if (call.tool === CHANGES_NEAR_ONSET_TOOL.name) {
        const result = await runChangesNearOnsetTool(reportedChanges(changes, integrationId), alerts, call.arguments, window);
        return record({ ...result, error: result.error ?? null, window: result.window ?? null });
      }
      const result = await catalog.run(call.tool, call.arguments, {
        connection:
          loki && call.integrationId === lokiId
            ? { integrationId: lokiId, type: 'loki', baseUrl: loki.url, headers: {} }
            : kubernetes && call.integrationId === kubernetesId
              ? { integrationId: kubernetesId, type: 'kubernetes', baseUrl: kubernetes.url, headers: { authorization: `Bearer ${kubernetes.token}` } }
              : { integrationId, type: 'prometheus', baseUrl: prometheusUrl, headers: {} },
        window,
        signal: new AbortController().signal,
      });
      return record({
        outcome: result.outcome,
        summary: result.summary,
        output: result.output,
        truncated: result.truncated,
        error: result.error ?? null,
        window: result.window ?? null,
      });
    },
    async recordUsage() {},
    async progress() {},
    async updateHypotheses(h: HypothesisItem[]) {
      session.hypotheses = h;
    },
    async noteRollout() {
      return null;
    },
    async noteCalls() {},
  };
  return session;
}

/** A change reader over reported changes, as the changes library reads them: those of the window on the services asked and those naming none (every one of it without services), oldest first. */
function reportedChanges(changes: ReportedChange[], integrationId: string): ChangeReader {
  const views = changes
    .map((c): ChangeView => ({
      id: randomUUID(),
      integrationId,
      deliveryId: null,
      investigationId: null,
      source: 'generic',
      externalId: `generic:${c.id}`,
      occurredAt: new Date(c.at * 1000).toISOString(),
      receivedAt: new Date(c.at * 1000).toISOString(),
      service: c.service,
      environment: null,
      kind: c.kind,
      summary: c.summary,
      author: c.author ?? null,
      versionBefore: c.versionBefore ?? null,
      versionAfter: c.versionAfter ?? null,
      links: [],
      details: {},
    }))
    .sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : 1));
  return {
    async near(range, services, limit) {
      const asked = new Set(services.map((s) => s.toLowerCase()));
      return views
        .filter((v) => {
          const at = Timestamp.parse(v.occurredAt)!;
          return !at.isBefore(range.from) && at.isBefore(range.until) && (!asked.size || v.service === null || asked.has(v.service.toLowerCase()));
        })
        .slice(0, limit);
    },
    async dependenciesOf() {
      return [];
    },
  };
}
