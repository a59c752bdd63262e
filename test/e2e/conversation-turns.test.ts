import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { ensureBuilt } from '../support/dist';
import { useBootstrappedApi } from '../support/factories';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { answer, offeredToolsOf, ScriptedModelServer, userTextOf } from '../support/scripted-model-server';
import { until } from '../support/until';
import { TestExporter } from '../support/test-exporter';
import { startWorker, TestWorker } from '../support/worker';

const ORG = { 'x-svc-organization': 'acme' };
const ENDED = ['needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

/**
 * Turns across a conversation, worked by the real worker: the context each turn's reasoner
 * sees (earlier messages and conclusions), limitations citing the messages that scoped them,
 * and `needs_input` (a question for the person, answered by the next message), with the
 * built-in reasoner and with a language model (the scripted provider on loopback).
 */
describe('conversation turns', () => {
  const ctx = useBootstrappedApi();
  let worker: TestWorker | undefined;

  const turnEnded = (conversationId: string, turn: number) =>
    until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/conversations/${conversationId}/turns?limit=200`, { headers: ORG });
        expect(res.status).toBe(200);
        const found = res.body.turns.find((t: { turn: number }) => t.turn === turn);
        return found && ENDED.includes(found.status) ? found : undefined;
      },
      60_000,
      `turn ${turn} of ${conversationId} to end`,
    );
  const thread = (conversationId: string, count: number) =>
    until(
      async () => {
        const res = await ctx.admin.get(`/api/v1/conversations/${conversationId}`);
        return res.body.messages.length >= count ? res.body.messages : undefined;
      },
      60_000,
      `${count} messages in ${conversationId}`,
    );
  const investigation = async (id: string) => (await ctx.admin.get(`/api/v1/investigations/${id}`)).body;

  describe('with the built-in reasoner', () => {
    beforeAll(async () => {
      // An incident opened minutes ago: a question about the last hour sees its alert.
      const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Shop alerts' });
      const res = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${g.body.id}/alert-events`, {
        body: { alerts: [{ labels: { alertname: 'CheckoutLatency', service: 'checkout' }, startsAt: new Date(Date.now() - 5 * 60_000).toISOString() }] },
        headers: { 'x-svc-token': g.body.webhookSecret },
        origin: false,
      });
      expect(res.status).toBe(202);
      worker = await startWorker();
    }, 120_000);
    afterAll(async () => {
      await worker?.close();
      worker = undefined;
    });

    it('asks which of the alerts it found is meant when the question names nothing it knows, and answers the reply in the next turn', async () => {
      const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Payments', message: 'Is paymnts healthy?' });
      expect(opened.status).toBe(201);
      const first = await turnEnded(opened.body.id, 1);
      expect(first.status).toBe('needs_input');
      expect(first.answer).toContain('"paymnts"');
      expect(first.answer).toContain('CheckoutLatency');
      const asked = await investigation(first.investigationId);
      expect(asked.limitations.length).toBeGreaterThan(0);
      for (const l of asked.limitations) expect(l.messageSequences).toEqual([1]);
      expect((await thread(opened.body.id, 2))[1]).toMatchObject({
        sequence: 2,
        role: 'assistant',
        text: first.answer,
        investigationId: first.investigationId,
      });
      // The turn's events are its investigation's stream, which ends with `concluded` carrying the status.
      const stream = await ctx.admin.get(`/api/v1/investigations/${first.investigationId}/events`);
      expect(stream.status).toBe(200);
      expect(stream.text).toMatch(/event: started\n/);
      expect(stream.text).toMatch(/event: concluded\ndata: \{[^\n]*"status":"needs_input"/);

      const reply = await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'I meant CheckoutLatency' });
      expect(reply.body).toMatchObject({ message: { sequence: 3 }, turn: { turn: 2, status: 'queued' }, queued: true });
      const second = await turnEnded(opened.body.id, 2);
      expect(second.status).toBe('concluded');
      expect(second.answer).toContain('CheckoutLatency');
      const answered = await investigation(second.investigationId);
      expect(answered.conclusionStatus).toBe('answer_only');
      expect(answered.findings.length).toBeGreaterThan(0);
      for (const f of answered.findings) expect(f.runRefs.length).toBeGreaterThan(0);
      expect(answered.runs.map((r: { tool: string }) => r.tool)).toContain('incidents.in_window');
    }, 120_000);

    it('leaves the oldest messages out of a long conversation, and says so in a limitation citing them', async () => {
      const long = (n: number) => `word${n} `.repeat(1600).slice(0, 8192);
      const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Long', message: long(1) });
      await turnEnded(opened.body.id, 1);
      for (let turn = 2; turn <= 4; turn++) {
        await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: long(turn) });
        await turnEnded(opened.body.id, turn);
      }
      const turns = (await ctx.admin.get(`/api/v1/conversations/${opened.body.id}/turns`, { headers: ORG })).body.turns;
      const early = await investigation(turns[1].investigationId);
      expect(early.limitations.some((l: { statement: string }) => /context budget/.test(l.statement))).toBe(false);
      const last = await investigation(turns[3].investigationId);
      const dropped = last.limitations.find((l: { statement: string }) => /context budget/.test(l.statement));
      expect(dropped).toMatchObject({ type: 'scope', runRefs: [] });
      expect(dropped.messageSequences[0]).toBe(1);
      expect(dropped.messageSequences).not.toContain(7);
    }, 120_000);

    it('answers a question that names nothing in particular with the alerts and incidents of the window', async () => {
      const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Overview', message: 'What happened in the last hour?' });
      const turn = await turnEnded(opened.body.id, 1);
      expect(turn.status).toBe('concluded');
      expect(turn.answer).toMatch(/1 incident\(s\) opened and these alerts fired: CheckoutLatency/);
      expect((await investigation(turn.investigationId)).conclusionStatus).toBe('answer_only');
    }, 60_000);
  });

  describe('with the built-in reasoner and a real Prometheus', () => {
    let exporter: TestExporter;
    let prometheus: MonitoringProcess;

    beforeAll(async () => {
      exporter = await TestExporter.start();
      prometheus = await MonitoringProcess.prometheus(
        [
          'global:',
          '  scrape_interval: 1s',
          'scrape_configs:',
          '  - job_name: checkout',
          `    static_configs: [{ targets: ['127.0.0.1:${exporter.port}'] }]`,
          '',
        ].join('\n'),
        await freePort(),
      );
      // A rate needs two samples: wait until Prometheus has scraped the exporter twice.
      await until(
        async () => {
          const body = (await fetch(`${prometheus.url}/api/v1/query?query=count_over_time(app_http_requests_total[1m])`).then((r) => r.json())) as {
            data: { result: Array<{ value: [number, string] }> };
          };
          return Number(body.data.result[0]?.value[1] ?? 0) >= 2 ? true : undefined;
        },
        30_000,
        'two scrapes of the exporter',
      );
      const created = await ctx.admin.post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: prometheus.url } });
      expect(created.status).toBe(201);
      worker = await startWorker();
    }, 120_000);
    afterAll(async () => {
      await worker?.close();
      worker = undefined;
      await prometheus?.stop();
      await exporter?.stop();
    });

    it("answers a question about a job it finds by its label value with that job's signals, each citing its run", async () => {
      const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Checkout', message: 'How is checkout doing?' });
      const turn = await turnEnded(opened.body.id, 1);
      expect(turn.status).toBe('concluded');
      expect(turn.answer).toContain('job checkout, request rate');
      expect(turn.answer).toContain('job checkout, error rate');
      const answered = await investigation(turn.investigationId);
      expect(answered.conclusionStatus).toBe('answer_only');
      const reads = answered.runs.filter((r: { tool: string }) => r.tool === 'prometheus.query_range');
      expect(reads.map((r: { arguments: { query: string } }) => r.arguments.query)).toEqual([
        'sum(rate(app_http_requests_total{job="checkout"}[5m]))',
        'sum(rate(app_http_errors_total{job="checkout"}[5m]))',
      ]);
      expect(reads.every((r: { outcome: string }) => r.outcome === 'succeeded')).toBe(true);
      const ordinals = new Set(answered.runs.map((r: { ordinal: number }) => r.ordinal));
      for (const f of answered.findings) {
        expect(f.runRefs.length).toBeGreaterThan(0);
        for (const n of f.runRefs) expect(ordinals.has(n)).toBe(true);
      }
      expect(answered.limitations).toEqual([
        expect.objectContaining({ type: 'missing_telemetry', statement: expect.stringMatching(/latency.*CPU.*restarts/), messageSequences: [1] }),
      ]);
    }, 60_000);
  });

  describe('with a language model', () => {
    let server: ScriptedModelServer;

    beforeAll(async () => {
      ensureBuilt();
      server = await ScriptedModelServer.start();
      worker = await startWorker({ SVC_LLM_PROVIDER: 'openai-compatible', SVC_LLM_BASE_URL: server.baseUrl, SVC_LLM_API_KEY: 'sk-conv', SVC_LLM_MODEL: 'm' });
    }, 60_000);
    afterAll(async () => {
      await worker?.close();
      await server?.close();
    });

    it('offers ask_person in a turn; the reply starts the next turn, whose model sees the earlier messages and conclusions', async () => {
      server.script(
        answer.tool('ask_person', { question: 'Which service do you mean: checkout or payments?' }),
        answer.conclude({
          conclusionStatus: 'answer_only',
          summary: 'Checkout answered normally in the window.',
          impact: { summary: 'None.', runRefs: [] },
          findings: [],
          hypotheses: [],
          actions: [],
          limitations: [
            { type: 'scope', statement: 'Only the service named in the reply was considered.', runRefs: [], messageSequences: [3, 99] },
            { type: 'missing_telemetry', statement: 'No metrics source is connected.', runRefs: [] },
          ],
        }),
      );
      const opened = await ctx.admin.post('/api/v1/conversations', { subject: 'Which one', message: 'Is the shop slow?' });
      const first = await turnEnded(opened.body.id, 1);
      expect(first).toMatchObject({ status: 'needs_input', answer: 'Which service do you mean: checkout or payments?' });
      // The model is told how the question reads: latency asked, of something named shop.
      expect(userTextOf(server.requests[0])).toContain('# The question, as read without a model (a hint)\nkind signals; signals latency; names shop\n');
      expect(Object.keys(offeredToolsOf(server.requests[0]))).toContain('ask_person');

      await ctx.admin.post(`/api/v1/conversations/${opened.body.id}/messages`, { message: 'checkout' });
      const second = await turnEnded(opened.body.id, 2);
      expect(second).toMatchObject({ status: 'concluded', answer: 'Checkout answered normally in the window.' });
      const prompt = userTextOf(server.requests[1]);
      expect(prompt).toContain('checkout');
      expect(prompt).toContain('#1 user');
      expect(prompt).toContain('Is the shop slow?');
      expect(prompt).toContain('#2 assistant');
      expect(prompt).toContain('Which service do you mean: checkout or payments?');
      expect(prompt).toMatch(/Turn 1 \(investigation [0-9a-f-]+\): needs_input/);
      const concluded = await investigation(second.investigationId);
      // The cited message is kept, an unknown one dropped; a limitation citing none cites the turn's message.
      expect(concluded.limitations.map((l: { messageSequences: number[] }) => l.messageSequences)).toEqual([[3], [3]]);
      expect((await thread(opened.body.id, 4)).map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    }, 120_000);
  });
});
