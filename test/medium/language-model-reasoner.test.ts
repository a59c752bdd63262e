import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { LanguageModelReasoner, type LanguageModelReasonerOptions } from '@svc/investigations/engine';
import {
  BudgetExhausted,
  InvestigationCancelled,
  ReasonerFailure,
  type AlertBrief,
  type Budgets,
  type IncidentBrief,
  type InvestigationSession,
  type RecordedRun,
  type SessionTool,
  type SourceBrief,
  type ToolCall,
  type HypothesisItem,
} from '@svc/investigations';
import { alertmanagerAlertsTool, ArgumentsValidator, prometheusQueryTool, type ToolWindow } from '@svc/investigations/tools';
import { until } from '../support/until';
import { answer, apiKeyOf, ScriptedModelServer, forcedToolOf, offeredToolsOf, systemOf, toolResultsOf, userTextOf } from '../support/scripted-model-server';

const API_KEY = 'sk-test-7f3a9c1e5b2d4f6a8c0e';
const INVESTIGATION_ID = '0190a0b0-0000-7000-8000-0000000000aa';
const PROMETHEUS = '0190a0b0-0000-7000-8000-000000000001';
const PROMETHEUS_2 = '0190a0b0-0000-7000-8000-000000000002';
const ALERTMANAGER = '0190a0b0-0000-7000-8000-000000000003';
const at = (text: string) => Timestamp.parse(text)!;

type Canned = Pick<RecordedRun, 'outcome' | 'summary' | 'output'> & { truncated?: boolean; error?: string };

const descriptor = (tool: typeof prometheusQueryTool | typeof alertmanagerAlertsTool): SessionTool => ({
  name: tool.name,
  description: tool.description,
  integrationType: tool.integrationType,
  argumentsSchema: tool.argumentsSchema,
});
const TOOLS: SessionTool[] = [
  descriptor(prometheusQueryTool),
  descriptor(alertmanagerAlertsTool),
  {
    name: 'incident.notes',
    description: "Reads the incident's notes.",
    integrationType: null,
    argumentsSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
];

const defaultResults = (call: ToolCall): Canned => {
  if (call.tool === 'prometheus.query')
    return {
      outcome: 'succeeded',
      summary: '1 series: checkout 5xx ratio 0.42 at the end of the window.',
      output: { resultType: 'vector', series: [{ name: 'checkout', value: '0.42' }] },
    };
  if (call.tool === 'alertmanager.alerts')
    return {
      outcome: 'succeeded',
      summary: '1 alert: 1 active. By alertname: CheckoutErrors.',
      output: { alerts: [{ alertname: 'CheckoutErrors', state: 'active' }] },
    };
  return { outcome: 'succeeded', summary: 'No notes.', output: { notes: [] } };
};

/**
 * Stands in for the engine's session: records runs with increasing ordinals (refusing unknown
 * tools, foreign sources and invalid arguments as failed runs), enforces the budgets, and answers
 * each tool with a canned result.
 */
class InMemorySession implements InvestigationSession {
  readonly investigationId = INVESTIGATION_ID;
  readonly subject = 'Why did checkout start failing after 10:05?';
  readonly window: ToolWindow = { from: at('2026-03-01T09:30:00Z'), until: at('2026-03-01T10:30:00Z') };
  readonly conversation = null;
  readonly incident: IncidentBrief = {
    id: '0190a0b0-0000-7000-8000-0000000000bb',
    title: 'Checkout error rate high',
    status: 'open',
    labels: { service: 'checkout', severity: 'critical' },
    openedAt: at('2026-03-01T10:06:00Z'),
    resolvedAt: null,
  };
  readonly alerts: AlertBrief[] = [
    {
      fingerprint: 'a1b2c3d4e5f60718',
      status: 'firing',
      labels: { alertname: 'CheckoutErrors', service: 'checkout' },
      annotations: { summary: '5xx ratio above 5%' },
      startsAt: at('2026-03-01T10:05:30Z'),
      endsAt: null,
      generatorUrl: null,
    },
  ];
  readonly sources: SourceBrief[] = [
    { integrationId: PROMETHEUS, type: 'prometheus', name: 'prod-metrics', rank: 1, reason: 'scrapes the checkout service' },
    { integrationId: ALERTMANAGER, type: 'alertmanager', name: 'prod-alerts', rank: 2, reason: 'sent the firing alert' },
    { integrationId: PROMETHEUS_2, type: 'prometheus', name: 'staging-metrics', rank: 3, reason: 'same labels' },
  ];
  readonly tools = TOOLS;
  readonly budgets: Budgets;
  readonly runs: RecordedRun[] = [];
  turns = 0;
  usage = { inputTokens: 0, outputTokens: 0 };
  readonly contexts: number[] = [];
  readonly progressLines: string[] = [];
  readonly hypothesisSnapshots: HypothesisItem[][] = [];
  private readonly validator = new ArgumentsValidator();

  constructor(
    readonly signal: AbortSignal = new AbortController().signal,
    budgets: Partial<Budgets> = {},
    private readonly results: (call: ToolCall) => Canned = defaultResults,
  ) {
    this.budgets = { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100_000, ...budgets };
    for (const tool of TOOLS) this.validator.add(tool.name, tool.argumentsSchema);
  }

  beginTurn(): void {
    if (this.signal.aborted) throw new InvestigationCancelled();
    if (this.turns >= this.budgets.reasonerTurns) throw new BudgetExhausted('reasoner_turns', `all ${this.budgets.reasonerTurns} reasoner turns are spent`);
    this.turns += 1;
  }

  async runTool(call: ToolCall): Promise<RecordedRun> {
    if (this.signal.aborted) throw new InvestigationCancelled();
    if (this.runs.length >= this.budgets.toolRuns) throw new BudgetExhausted('tool_runs', `all ${this.budgets.toolRuns} tool runs are spent`);
    const tool = this.tools.find((t) => t.name === call.tool);
    const refusal = !tool
      ? `no tool named ${call.tool}`
      : tool.integrationType !== null && !this.sources.some((s) => s.integrationId === call.integrationId && s.type === tool.integrationType)
        ? `no ${tool.integrationType} source ${String(call.integrationId)} in this investigation`
        : this.validator.check(tool.name, call.arguments);
    const result: Canned = refusal ? { outcome: 'failed', summary: `Refused: ${refusal}`, output: null, error: refusal } : this.results(call);
    const run: RecordedRun = {
      ordinal: this.runs.length + 1,
      tool: call.tool,
      integrationId: call.integrationId,
      arguments: call.arguments,
      purpose: call.purpose,
      hypothesisId: call.hypothesisId ?? null,
      outcome: result.outcome,
      summary: result.summary,
      output: result.output,
      truncated: result.truncated ?? false,
      error: result.error ?? null,
      window: this.window,
    };
    this.runs.push(run);
    return run;
  }

  async recordUsage(usage: { inputTokens: number; outputTokens: number; contextTokens?: number }): Promise<void> {
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.contexts.push(usage.contextTokens ?? 0);
    if ((usage.contextTokens ?? 0) > this.budgets.contextTokens) throw new BudgetExhausted('context', 'the context budget is spent');
  }

  async progress(message: string): Promise<void> {
    this.progressLines.push(message);
  }

  async updateHypotheses(hypotheses: HypothesisItem[]): Promise<void> {
    this.hypothesisSnapshots.push(hypotheses);
  }

  async noteRollout(): Promise<string | null> {
    return null;
  }

  async noteCalls(): Promise<void> {}
}

/** A conclusion that a run with this ordinal verifies (a run made with hypothesisId h1). */
const conclusionCiting = (ordinal: number) => ({
  conclusionStatus: 'verified_cause',
  summary: 'Checkout returned 5xx for 42% of requests after the v2.3 deploy; the error-ratio query confirms it.',
  impact: { summary: 'About 42% of checkout requests failed from 10:05.', runRefs: [ordinal] },
  findings: [
    {
      statement: 'The checkout 5xx ratio rose to 0.42',
      kind: 'cause',
      mechanism: 'The v2.3 release fails requests with HTTP 500',
      runRefs: [ordinal],
      hypothesisId: 'h1',
      verification: { causeAt: '2026-11-22T10:04:00Z', onsetAt: '2026-11-22T10:05:00Z', mechanismRunRefs: [ordinal], unexplained: [] },
    },
  ],
  hypotheses: [
    { id: 'h1', statement: 'The v2.3 deploy broke checkout', status: 'supported', test: 'sum(rate(http_requests_total{code=~"5.."}[5m]))', runRefs: [ordinal] },
  ],
  actions: [
    { title: 'Roll checkout back to v2.2', rationale: 'The errors started with v2.3', verification: 'The 5xx ratio falls below 1%', runRefs: [ordinal] },
  ],
  limitations: [],
});

const inconclusive = {
  conclusionStatus: 'inconclusive',
  summary: 'The evidence so far does not explain the errors.',
  impact: { summary: 'Unknown.', runRefs: [] },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: [],
};

const queryCall = (integrationId = PROMETHEUS, extra: Record<string, unknown> = {}) => ({
  name: 'prometheus__query',
  input: { integrationId, purpose: 'Error ratio of checkout', query: 'sum(rate(http_requests_total{code=~"5.."}[5m]))', ...extra },
});

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe.each(['openai-compatible', 'anthropic'] as const)('LanguageModelReasoner over %s', (provider) => {
  let server: ScriptedModelServer;
  const reasoner = (extra: Partial<LanguageModelReasonerOptions> = {}) =>
    new LanguageModelReasoner({ provider, baseUrl: server.baseUrl, apiKey: API_KEY, model: 'test-model', ...extra });

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('runs the tool calls through the session, feeds their results back and returns the checked conclusion with real usage', async () => {
    server.script(
      answer.tools(
        [
          queryCall(PROMETHEUS, { hypothesisId: 'h1', hypothesis: 'The v2.3 deploy broke checkout' }),
          { name: 'alertmanager__alerts', input: { integrationId: ALERTMANAGER, purpose: 'Which alerts fire' } },
        ],
        { input: 1200, output: 80 },
        'Checking the error ratio first.',
      ),
      answer.conclude(conclusionCiting(1), { input: 2100, output: 300 }),
    );
    const session = new InMemorySession();

    const conclusion = await reasoner().investigate(session);

    const expected = conclusionCiting(1);
    expect(conclusion).toEqual({
      ...expected,
      findings: [{ ...expected.findings[0], evidenceRefs: [{ investigationId: INVESTIGATION_ID, toolRunOrdinal: 1 }] }],
      limitations: [],
    });
    expect(session.runs.map((r) => [r.ordinal, r.tool, r.integrationId, r.outcome])).toEqual([
      [1, 'prometheus.query', PROMETHEUS, 'succeeded'],
      [2, 'alertmanager.alerts', ALERTMANAGER, 'succeeded'],
    ]);
    // The reasoner's own fields are taken out of the tool's arguments.
    expect(session.runs[0].arguments).toEqual({ query: 'sum(rate(http_requests_total{code=~"5.."}[5m]))' });
    expect(session.runs[0]).toMatchObject({ purpose: 'Error ratio of checkout', hypothesisId: 'h1' });
    expect(session.turns).toBe(2);
    expect(session.usage).toEqual({ inputTokens: 3300, outputTokens: 380 });
    expect(session.contexts).toEqual([1200, 2100]);
    expect(session.progressLines).toEqual(['Checking the error ratio first.']);
    expect(session.hypothesisSnapshots.at(-1)).toEqual([
      { id: 'h1', statement: 'The v2.3 deploy broke checkout', status: 'untested', test: 'Error ratio of checkout', runRefs: [1] },
    ]);

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first.protocol).toBe(provider === 'anthropic' ? 'anthropic' : 'openai');
    expect(apiKeyOf(first)).toBe(API_KEY);
    if (provider === 'anthropic') expect(first.headers['anthropic-version']).toBeTruthy();
    expect(first.body.model).toBe('test-model');
    expect(systemOf(first)).toMatch(/on-call engineer/);
    expect(systemOf(first)).toMatch(/never act on systems yourself/);
    const brief = userTextOf(first);
    for (const needle of [
      'Why did checkout start failing after 10:05?',
      'Checkout error rate high',
      'severity="critical"',
      'a1b2c3d4e5f60718',
      'prod-metrics',
      PROMETHEUS,
      '2026-03-01T10:06:00',
    ]) {
      expect(brief).toContain(needle);
    }

    const offered = offeredToolsOf(first);
    expect(Object.keys(offered).sort()).toEqual(['alertmanager__alerts', 'conclude', 'incident__notes', 'prometheus__query', 'update_hypotheses']);
    expect(offered.prometheus__query.parameters.properties.integrationId.enum).toEqual([PROMETHEUS, PROMETHEUS_2]);
    expect(offered.prometheus__query.parameters.required).toEqual(expect.arrayContaining(['query', 'integrationId', 'purpose']));
    expect(offered.prometheus__query.parameters.properties.hypothesisId).toBeDefined();
    expect(offered.alertmanager__alerts.parameters.properties.integrationId.enum).toEqual([ALERTMANAGER]);
    expect(offered.incident__notes.parameters.properties.integrationId).toBeUndefined();
    expect(offered.conclude.parameters.properties.conclusionStatus.enum).toEqual(['verified_cause', 'supported_explanation', 'inconclusive', 'answer_only']);
    expect(offered.conclude.parameters.properties.limitations.items.properties.type.enum).toEqual(['missing_telemetry', 'tool_failure', 'budget', 'scope']);
    // Every schema offered is a JSON Schema that a strict validator (the tools' own settings) compiles.
    const ajv = addFormats(new Ajv({ strict: true, strictTypes: false }), ['date-time']);
    for (const [name, { parameters }] of Object.entries(offered)) {
      expect(() => ajv.compile(parameters), name).not.toThrow();
    }

    const results = toolResultsOf(second);
    expect(results).toHaveLength(2);
    expect(results[0].id).toBe(provider === 'anthropic' ? 'toolu_1_0' : 'call_1_0');
    expect(results[0].text).toContain('Tool run #1: prometheus.query');
    expect(results[0].text).toContain('checkout 5xx ratio 0.42');
    expect(results[0].text).toContain('"value":"0.42"');
    expect(results[1].text).toContain('Tool run #2: alertmanager.alerts');
    expect(server.unanswered).toBe(0);
  });

  it('cuts a large tool output to 8 KB in what it sends back, and says so', async () => {
    const big = { series: Array.from({ length: 2000 }, (_, i) => ({ name: `pod-${i}`, value: String(i / 1000) })) };
    server.script(answer.tool('prometheus__query', queryCall().input), answer.conclude(inconclusive));
    const session = new InMemorySession(undefined, {}, () => ({ outcome: 'succeeded', summary: '2000 series', output: big }));

    await reasoner().investigate(session);

    const [result] = toolResultsOf(server.requests[1]);
    expect(result.text).toMatch(/cut here to the first 8192 of \d+ bytes/);
    expect(Buffer.byteLength(result.text)).toBeLessThan(8192 + 1500);
    expect(result.text).toContain('pod-0');
    expect(result.text).not.toContain('pod-1999');
  });

  it('refuses a conclusion that cites a missing run, says why, and accepts the corrected one on the next turn', async () => {
    server.script(
      answer.tool('prometheus__query', queryCall(PROMETHEUS, { hypothesisId: 'h1' }).input),
      answer.conclude(conclusionCiting(7)),
      answer.conclude(conclusionCiting(1)),
    );
    const session = new InMemorySession();

    const conclusion = await reasoner().investigate(session);

    expect(conclusion.findings[0].runRefs).toEqual([1]);
    expect(session.turns).toBe(3);
    const refusal = toolResultsOf(server.requests[2]).at(-1)!;
    expect(refusal.id).toBe(provider === 'anthropic' ? 'toolu_2_0' : 'call_2_0');
    expect(refusal.text).toContain('Conclusion not accepted');
    expect(refusal.text).toContain('impact.runRefs[0] cites tool run #7, which does not exist (the recorded runs are #1)');
  });

  it('refuses a conclusion stating a number no run it cites shows, and accepts the one that states what the run shows', async () => {
    const stated = conclusionCiting(1);
    server.script(
      answer.tool('prometheus__query', queryCall(PROMETHEUS, { hypothesisId: 'h1' }).input),
      answer.conclude({ ...stated, findings: [{ ...stated.findings[0], statement: 'The checkout 5xx ratio rose to 57% at 41.2 req/s' }] }),
      answer.conclude(stated),
    );
    const session = new InMemorySession();

    const conclusion = await reasoner().investigate(session);

    expect(conclusion.findings[0].statement).toBe('The checkout 5xx ratio rose to 0.42');
    const refusal = toolResultsOf(server.requests[2]).at(-1)!;
    expect(refusal.text).toContain('Conclusion not accepted');
    expect(refusal.text).toContain('findings[0].statement states 57%, 41.2 req/s, which no tool run it cites shows');
  });

  it('fails with ReasonerFailure after two invalid conclusions in a row', async () => {
    server.script(answer.conclude(conclusionCiting(7)), answer.conclude({ ...inconclusive, conclusionStatus: 'certain' }));
    const session = new InMemorySession();

    const error = await failureOf(reasoner().investigate(session));

    expect(error).toBeInstanceOf(ReasonerFailure);
    expect(error.message).toMatch(/invalid conclusion 2 times in a row/);
    expect(error.message).toMatch(/conclusionStatus/);
    expect(server.requests).toHaveLength(2);
    expect(toolResultsOf(server.requests[1])[0].text).toContain('cites tool run #7, which does not exist (no tool run has been recorded yet)');
  });

  it('passes a call the session refuses on as a failed run, and answers unknown tools without a run', async () => {
    const calls = [
      queryCall(ALERTMANAGER),
      { name: 'kubectl_delete_pod', input: { pod: 'checkout-1' } },
      ...(provider === 'openai-compatible' ? [{ name: 'prometheus__query', input: '{"query": ' }] : []),
    ];
    server.script(answer.tools(calls), answer.conclude(inconclusive));
    const session = new InMemorySession();

    await reasoner().investigate(session);

    expect(session.runs).toHaveLength(1);
    expect(session.runs[0]).toMatchObject({ ordinal: 1, outcome: 'failed', integrationId: ALERTMANAGER });
    const results = toolResultsOf(server.requests[1]);
    expect(results[0].text).toContain('Tool run #1: prometheus.query');
    expect(results[0].text).toContain(`Error: no prometheus source ${ALERTMANAGER}`);
    expect(results[1].text).toBe('Not run: there is no tool named "kubectl_delete_pod".');
    if (provider === 'openai-compatible') expect(results[2].text).toMatch(/^Not run: the arguments are not valid JSON/);
  });

  it('accepts a conclusion answered as JSON text instead of through conclude', async () => {
    server.script(
      answer.tool('prometheus__query', queryCall(PROMETHEUS, { hypothesisId: 'h1' }).input),
      answer.text(`Here it is:\n\`\`\`json\n${JSON.stringify(conclusionCiting(1))}\n\`\`\``),
    );
    const conclusion = await reasoner().investigate(new InMemorySession());
    expect(conclusion.conclusionStatus).toBe('verified_cause');
  });

  it('records hypotheses stated with update_hypotheses, and refuses ones that cite missing runs', async () => {
    const h1 = { id: 'h1', statement: 'A bad deploy', status: 'untested', test: 'error ratio by version', runRefs: [] };
    server.script(
      answer.tool('update_hypotheses', { hypotheses: [h1] }),
      answer.tool('update_hypotheses', { hypotheses: [{ ...h1, runRefs: [3] }] }),
      answer.conclude(inconclusive),
    );
    const session = new InMemorySession();

    await reasoner().investigate(session);

    expect(session.hypothesisSnapshots).toEqual([[h1]]);
    expect(toolResultsOf(server.requests[1]).at(-1)!.text).toBe('Recorded 1 hypothesis.');
    expect(toolResultsOf(server.requests[2]).at(-1)!.text).toContain('hypotheses[0].runRefs[0] cites tool run #3, which does not exist');
  });

  it('turns a provider HTTP 500 into a ReasonerFailure naming the provider and status, after one retry', async () => {
    server.script(answer.status(500, 'upstream overloaded', { 'retry-after': '0' }), answer.status(500, 'upstream overloaded', { 'retry-after': '0' }));
    const error = await failureOf(reasoner().investigate(new InMemorySession()));
    expect(error).toBeInstanceOf(ReasonerFailure);
    expect(error.message).toContain(`The language model provider (${provider}, model test-model) answered HTTP 500 (after 2 attempts)`);
    expect(error.message).toContain('upstream overloaded');
    expect(error.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 429 once and carries on when the second attempt answers', async () => {
    server.script(answer.status(429, 'slow down', { 'retry-after': '0' }), answer.conclude(inconclusive));
    const conclusion = await reasoner().investigate(new InMemorySession());
    expect(conclusion.conclusionStatus).toBe('inconclusive');
    expect(server.requests).toHaveLength(2);
  });

  it('turns a 401 into a ReasonerFailure at once, without the API key even when the provider echoes it', async () => {
    server.script(answer.status(401, 'invalid api key'));
    const error = await failureOf(reasoner().investigate(new InMemorySession()));
    expect(error).toBeInstanceOf(ReasonerFailure);
    expect(error.message).toMatch(/answered HTTP 401: invalid api key/);
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('turns a malformed response into a ReasonerFailure', async () => {
    server.script(answer.malformed());
    const error = await failureOf(reasoner().investigate(new InMemorySession()));
    expect(error).toBeInstanceOf(ReasonerFailure);
    expect(error.message).toBe(`The language model provider (${provider}, model test-model) answered HTTP 200 with a body that is not valid JSON`);
  });

  it('gives up on a call that exceeds the per-call timeout', async () => {
    server.script(answer.after(5000, answer.conclude(inconclusive)));
    const error = await failureOf(reasoner({ callTimeoutMs: 300 }).investigate(new InMemorySession()));
    expect(error).toBeInstanceOf(ReasonerFailure);
    expect(error.message).toContain('did not answer within 0.3 s');
    await until(() => server.requests[0]?.abandoned, 10_000, 'the timed-out call to be abandoned');
    expect(server.requests[0]).toMatchObject({ abandoned: true, answered: false });
  });

  it('aborts the in-flight call when the investigation is cancelled', async () => {
    server.script(answer.after(10_000, answer.conclude(inconclusive)));
    const controller = new AbortController();
    const session = new InMemorySession(controller.signal);

    const failing = failureOf(reasoner().investigate(session));
    await until(() => server.requests.length > 0, 10_000, 'the model call to arrive');
    controller.abort();
    const error = await failing;

    expect(error).toBeInstanceOf(InvestigationCancelled);
    await until(() => server.requests[0].abandoned, 10_000, 'the call to be abandoned');
    expect(server.requests[0]).toMatchObject({ abandoned: true, answered: false });
  });

  it('lets the turn budget stop the run: BudgetExhausted from beginTurn propagates', async () => {
    server.script(answer.tool('prometheus__query', queryCall().input), answer.tool('prometheus__query', queryCall(PROMETHEUS_2).input));
    const session = new InMemorySession(undefined, { reasonerTurns: 2 });

    const error = await failureOf(reasoner().investigate(session));

    expect(error).toBeInstanceOf(BudgetExhausted);
    expect((error as BudgetExhausted).stoppedBy).toBe('reasoner_turns');
    expect(server.requests).toHaveLength(2);
    expect(session.runs.map((r) => r.integrationId)).toEqual([PROMETHEUS, PROMETHEUS_2]);
  });

  it('stops before sending a request that would exceed the context budget', async () => {
    server.script(answer.conclude(inconclusive));
    const session = new InMemorySession(undefined, { contextTokens: 200 });

    const error = await failureOf(reasoner().investigate(session));

    expect(error).toBeInstanceOf(BudgetExhausted);
    expect((error as BudgetExhausted).stoppedBy).toBe('context');
    expect(error.message).toMatch(/would send about \d+ tokens, more than the context budget of 200/);
    expect(server.requests).toHaveLength(0);
  });

  it('concludes early with one forced conclude call, without turns or tool runs, and notes the budget', async () => {
    const session = new InMemorySession();
    await session.runTool({ tool: 'prometheus.query', integrationId: PROMETHEUS, arguments: { query: 'up' }, purpose: 'Is checkout up?' });
    server.script(answer.conclude({ ...conclusionCiting(1), conclusionStatus: 'supported_explanation' }, { input: 900, output: 150 }));

    const conclusion = await reasoner().concludeEarly(session, 'tool_runs');

    expect(conclusion.conclusionStatus).toBe('supported_explanation');
    expect(conclusion.limitations).toEqual([
      { type: 'budget', statement: 'The tool-run budget stopped the investigation before it finished.', runRefs: [], messageSequences: [] },
    ]);
    expect(session.turns).toBe(0);
    expect(session.runs).toHaveLength(1);
    expect(session.usage).toEqual({ inputTokens: 900, outputTokens: 150 });
    const [request] = server.requests;
    expect(Object.keys(offeredToolsOf(request))).toEqual(['conclude']);
    expect(forcedToolOf(request)).toBe('conclude');
    expect(userTextOf(request)).toContain('Tool run #1: prometheus.query');
    expect(userTextOf(request)).toContain('tool-run budget is spent');
  });

  it('builds a minimal honest conclusion with the latest hypotheses when the final call fails', async () => {
    const session = new InMemorySession(undefined, { reasonerTurns: 1 });
    const h1 = { id: 'h1', statement: 'A bad deploy', status: 'untested', test: 'error ratio by version', runRefs: [] };
    const llm = reasoner();
    server.script(answer.tool('update_hypotheses', { hypotheses: [h1] }));
    const stop = await failureOf(llm.investigate(session));
    expect(stop).toBeInstanceOf(BudgetExhausted);
    server.script(answer.status(500, 'down', { 'retry-after': '0' }), answer.status(500, 'down', { 'retry-after': '0' }));

    const conclusion = await llm.concludeEarly(session, 'reasoner_turns');

    expect(conclusion).toMatchObject({ conclusionStatus: 'inconclusive', findings: [], actions: [], hypotheses: [h1] });
    expect(conclusion.summary).toContain('reasoner-turn budget');
    expect(conclusion.limitations).toHaveLength(1);
    expect(conclusion.limitations[0].type).toBe('budget');
    expect(conclusion.limitations[0].statement).toContain('HTTP 500');
    expect(conclusion.limitations[0].statement).not.toContain(API_KEY);
  });

  it('concludes early without a model call after the wall clock ran out, and refuses to after a cancellation', async () => {
    server.script();
    const controller = new AbortController();
    controller.abort();
    const session = new InMemorySession(controller.signal);

    const conclusion = await reasoner().concludeEarly(session, 'wall_clock');
    expect(conclusion.conclusionStatus).toBe('inconclusive');
    expect(conclusion.limitations[0].statement).toContain('wall-clock budget');
    await expect(reasoner().concludeEarly(session, 'tool_runs')).rejects.toBeInstanceOf(InvestigationCancelled);
    expect(server.requests).toHaveLength(0);
  });
});
