import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverPage, DeliveredPage, deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { useBootstrappedApi } from '../support/factories';
import { until } from '../support/until';
import { startWorker, TestWorker } from '../support/worker';

const ORG = { 'x-svc-organization': 'acme' };

/**
 * A conversation about an incident through the API, answered by the worker's built-in reasoner
 * from a real Prometheus with three hours of backfilled data: search 3.3.0 answers /api/search
 * four times slower. Each follow-up gets its own answer, built on the turns before it, every
 * statement citing a run of its turn.
 */
describe('questions about an incident in a conversation, through the API', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker;
  let staged: StagedPrometheus;
  let delivered: DeliveredPage;

  beforeAll(async () => {
    worker = await startWorker();
    const scenario = SCENARIOS.find((s) => s.name === 'search-slow-version-chronic-alert')!;
    staged = await stagePrometheus(scenario);
    const [page] = await deriveAlerts(staged.prometheus.url, scenario.rule, staged.start, staged.end);
    delivered = await deliverPage(ctx.admin, scenario.name, staged.prometheus.url, page, [], ctx.api.baseUrl);
  }, 240_000);

  afterAll(async () => {
    await delivered?.disable();
    await worker?.close();
    await staged?.stop();
  });

  const turnEnded = (conversationId: string, turn: number) =>
    until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/conversations/${conversationId}/turns?limit=200`, { headers: ORG });
        const found = res.body.turns.find((t: { turn: number }) => t.turn === turn);
        return found && ['concluded', 'partial', 'failed', 'needs_input'].includes(found.status) ? found : undefined;
      },
      60_000,
      `turn ${turn} to end`,
    );

  /** The turn's investigation, with every finding citing runs of its own that succeeded. */
  const cited = async (investigationId: string) => {
    const read = (await ctx.admin.get(`/api/v1/investigations/${investigationId}`)).body;
    const succeeded = new Set(read.runs.filter((r: { outcome: string }) => r.outcome === 'succeeded').map((r: { ordinal: number }) => r.ordinal));
    expect(read.findings.length).toBeGreaterThan(0);
    for (const f of read.findings) {
      expect(f.runRefs.length).toBeGreaterThan(0);
      for (const n of f.runRefs) expect(succeeded.has(n)).toBe(true);
    }
    return read;
  };

  it('answers each follow-up as asked, carrying the version and the service from turn to turn', async () => {
    const opened = await ctx.admin.post('/api/v1/conversations', {
      subject: 'Search latency',
      incidentId: delivered.incidentId,
      message: 'is the regression limited to /api/search or are other routes slower too since 3.3.0?',
    });
    expect(opened.status).toBe(201);
    const id = opened.body.id;

    const split = await turnEnded(id, 1);
    expect(split.status).toBe('concluded');
    expect(split.answer).toMatch(
      /^Only \/api\/search of search has a higher p99 latency since 3\.3\.0 started \(.*UTC\); the other routes are about the same \[#\d+, #\d+\]/,
    );
    expect((await cited(split.investigationId)).conclusionStatus).toBe('answer_only');

    await ctx.admin.post(`/api/v1/conversations/${id}/messages`, { message: 'which pods run it, and on which nodes?' });
    const pods = await turnEnded(id, 2);
    expect(pods.answer).toMatch(/^2 pod\(s\) of search run 3\.3\.0 at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, on 2 node\(s\): /);
    await cited(pods.investigationId);

    await ctx.admin.post(`/api/v1/conversations/${id}/messages`, { message: 'when did it begin?' });
    const began = await turnEnded(id, 3);
    // "it" is the slowness the conversation asked about: the latency, dated from its usual level.
    expect(began.answer).toMatch(
      /^The p99 latency of search rose from \d+ ms to \d+(\.\d+)? s at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, and is still at .* \[#\d+\]$/,
    );
    await cited(began.investigationId);

    await ctx.admin.post(`/api/v1/conversations/${id}/messages`, { message: 'what changed before that?' });
    const changed = await turnEnded(id, 4);
    expect(changed.answer).toContain('| search 3.2.1 → 3.3.0 (a new version) |');
    await cited(changed.investigationId);

    // The assistant's answers are the conversation's messages, in turn order (an ended turn's answer
    // is appended by the step that moves the conversation on, just after its investigation ends).
    const assistant = (messages: Array<{ role: string; text: string }>) => messages.filter((m) => m.role === 'assistant').map((m) => m.text);
    const thread = await until(
      async () => {
        const messages = (await ctx.admin.get(`/api/v1/conversations/${id}`)).body.messages;
        return assistant(messages).length >= 4 ? messages : undefined;
      },
      10_000,
      'the fourth answer to be a message',
    );
    expect(assistant(thread)).toEqual([split, pods, began, changed].map((t) => t.answer));
  }, 180_000);

  it('reuses the reads of an earlier turn that the same window answers, recorded as runs of the new turn', async () => {
    // A fixed window (the message's), as a resolved incident's is: the same reads read the same data.
    const window = { windowFrom: new Date((staged.end - 3600) * 1000).toISOString(), windowUntil: new Date(staged.end * 1000).toISOString() };
    const opened = await ctx.admin.post('/api/v1/conversations', {
      subject: 'Search traffic',
      incidentId: delivered.incidentId,
      message: 'what is the request rate of search?',
      ...window,
    });
    const first = await turnEnded(opened.body.id, 1);
    expect(first.answer).toMatch(
      /^The request rate of search (is|was) \d+(\.\d+)? req\/s (now \(\d\d:\d\d UTC\)|at \d\d:\d\d UTC, the end of the window); it averaged \d+(\.\d+)? req\/s /,
    );
    await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'and the p99 latency of search?', ...window });
    const second = await turnEnded(opened.body.id, 2);
    expect(second.answer).toMatch(
      /^The p99 latency of search (is|was) \d+(\.\d+)? (ms|s) (now \(\d\d:\d\d UTC\)|at \d\d:\d\d UTC, the end of the window); it averaged /,
    );

    const before = (await ctx.admin.get(`/api/v1/investigations/${first.investigationId}`)).body.runs;
    const runs = (await ctx.admin.get(`/api/v1/investigations/${second.investigationId}`)).body.runs;
    // Which jobs exist (the other names are read only when a word is none of them), and which metrics search has: read once, by turn 1.
    const reused = runs.filter((r: { summary: string }) => r.summary.startsWith('Reused from turn 1 '));
    expect(reused.map((r: { tool: string; arguments: { label: string } }) => `${r.tool} ${r.arguments.label}`)).toEqual([
      'prometheus.label_values job',
      'prometheus.label_values __name__',
    ]);
    for (const r of reused) {
      const original = before.find(
        (b: { tool: string; arguments: unknown }) => b.tool === r.tool && JSON.stringify(b.arguments) === JSON.stringify(r.arguments),
      );
      expect(r.summary).toBe(`Reused from turn 1 (run #${original.ordinal}), which made the same read: ${original.summary}`);
      expect(r.output).toEqual(original.output);
    }
    // The latency is a read of its own.
    const latency = runs.find((r: { arguments: { query?: string } }) => r.arguments.query?.startsWith('histogram_quantile'));
    expect(latency.summary).not.toMatch(/^Reused/);
  }, 120_000);
});
