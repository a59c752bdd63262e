import { generateText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { Conclusion, StoppedBy } from '../conclusion.types';
import {
  checkConclusion,
  conclusionInText,
  describeIssues,
  hypothesesUpdateSchema,
  missingRunProblems,
  type ConclusionCheck,
} from './language-model-conclusion';
import { CAUSES_NEAR_ONSET_TOOL, runCausesNearOnset } from './language-model-causes';
import { providerFailure } from './language-model-failure';
import { LanguageModelHypotheses } from './language-model-hypotheses';
import { budgetName, describeEarlyStop, describeInvestigation, describeRun, SYSTEM_PROMPT } from './language-model-prompt';
import { apiRootOf, createLanguageModel, type LanguageModelConnection } from './language-model-provider';
import { estimateTokens } from './language-model-tokens';
import { ASK_PERSON_TOOL, CONCLUDE_TOOL, LanguageModelTools, UPDATE_HYPOTHESES_TOOL } from './language-model-tools';
import { BudgetExhausted, InvestigationCancelled, ReasonerFailure, type InvestigationSession, type Reasoner } from './reasoner';

export interface LanguageModelReasonerOptions extends LanguageModelConnection {
  /** How long one model call may take, its retries included (ms); default 120 000. */
  callTimeoutMs?: number;
  /** Retries of a call that failed with 408/409/429/5xx or no connection; default 1. */
  maxRetries?: number;
  /** Bytes of a tool run's output shown to the model; default 8192. */
  runOutputCapBytes?: number;
  /** Tokens the model may write per call; default 4096. */
  maxOutputTokens?: number;
}

type ToolChoice = 'auto' | { type: 'tool'; toolName: string };
interface ModelCall {
  messages: ModelMessage[];
  tools: ToolSet;
  toolChoice: ToolChoice;
}
type CallResult = Awaited<ReturnType<typeof generateText<ToolSet>>>;
type ModelToolCall = CallResult['toolCalls'][number];

/** Invalid conclusions in a row after which the investigation fails. */
const INVALID_CONCLUSIONS_ALLOWED = 2;
/** Smaller and smaller outputs until the final prompt fits the context budget; 0 shows summaries only. */
const EARLY_OUTPUT_CAPS = [2048, 512, 0];
const PROGRESS_CHARS = 300;

/** The session's abort, as what the reasoner throws: the engine may abort with the error it wants thrown. */
function abortReasonOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof BudgetExhausted || reason instanceof InvestigationCancelled ? reason : new InvestigationCancelled();
}

/** The end of a turn that asks the person: its question is the answer, and nothing is claimed. */
function askPerson(question: string): Conclusion {
  return {
    question,
    conclusionStatus: 'inconclusive',
    summary: question,
    impact: { summary: 'Not assessed yet: waiting for the answer to the question', runRefs: [] },
    findings: [],
    hypotheses: [],
    actions: [],
    limitations: [],
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A Reasoner that lets a language model (OpenAI-compatible chat completions or Anthropic messages,
 * through the Vercel AI SDK) investigate: each model call is one reasoner turn; every tool call it
 * makes runs through the session; it ends by calling `conclude`, whose argument is checked before
 * it is returned.
 */
export class LanguageModelReasoner implements Reasoner {
  readonly name: string;
  private readonly model: LanguageModel;
  private readonly connection: LanguageModelConnection;
  private readonly callTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly runOutputCapBytes: number;
  private readonly maxOutputTokens: number;
  private readonly hypotheses = new LanguageModelHypotheses();

  constructor(options: LanguageModelReasonerOptions) {
    if (!options.model) throw new Error('LanguageModelReasoner needs a model name');
    this.connection = { provider: options.provider, baseUrl: options.baseUrl, apiKey: options.apiKey, model: options.model };
    this.model = createLanguageModel(this.connection);
    this.name = `${options.provider}:${options.model}`;
    this.callTimeoutMs = options.callTimeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 1;
    this.runOutputCapBytes = options.runOutputCapBytes ?? 8192;
    this.maxOutputTokens = options.maxOutputTokens ?? 4096;
  }

  async investigate(session: InvestigationSession): Promise<Conclusion> {
    const tools = new LanguageModelTools(session);
    const messages: ModelMessage[] = [{ role: 'user', content: describeInvestigation(session, this.runOutputCapBytes) }];
    let invalidInARow = 0;
    const refuse = (check: Extract<ConclusionCheck, { ok: false }>): string => {
      invalidInARow += 1;
      if (invalidInARow >= INVALID_CONCLUSIONS_ALLOWED) {
        throw new ReasonerFailure(
          clip(
            `The language model (${this.name}) handed in an invalid conclusion ${invalidInARow} times in a row; the last: ${check.problems.join('; ')}`,
            4096,
          ),
        );
      }
      return `Conclusion not accepted. Fix these problems and call conclude again:\n- ${check.problems.join('\n- ')}`;
    };

    for (;;) {
      if (session.signal.aborted) throw abortReasonOf(session.signal);
      session.beginTurn();
      const request: ModelCall = { messages, tools: tools.all, toolChoice: 'auto' };
      const estimate = estimateTokens({ system: SYSTEM_PROMPT, messages, tools: tools.definitions(tools.all) });
      if (estimate > session.budgets.contextTokens) {
        throw new BudgetExhausted(
          'context',
          `The next language model call would send about ${estimate} tokens, more than the context budget of ${session.budgets.contextTokens}`,
        );
      }
      const result = await this.call(session, request);
      await this.recordUsage(session, result, estimate);
      messages.push(...result.response.messages.filter((m) => m.role === 'assistant'));
      const text = result.text.trim();
      if (text) await session.progress(clip(text.replace(/\s+/g, ' '), PROGRESS_CHARS));

      if (result.toolCalls.length === 0) {
        const found = conclusionInText(text);
        if (!found) {
          messages.push({ role: 'user', content: 'Continue: call a tool to gather evidence, or call conclude with your conclusion.' });
          continue;
        }
        const check: ConclusionCheck =
          'invalidJson' in found
            ? { ok: false, problems: [`your answer is not valid JSON: ${found.invalidJson}`] }
            : checkConclusion(found.value, session.investigationId, session.runs);
        if (check.ok) return check.conclusion;
        messages.push({ role: 'user', content: refuse(check) });
        continue;
      }

      const replies = new Map<string, string>();
      let ranTools = false;
      let attempt: ModelToolCall | undefined;
      const ask = result.toolCalls.find((call) => call.toolName === ASK_PERSON_TOOL && !(call.dynamic && call.invalid));
      const question =
        typeof (ask?.input as { question?: unknown } | undefined)?.question === 'string' ? (ask!.input as { question: string }).question.trim() : '';
      if (ask && question) return askPerson(question.slice(0, 4096));
      for (const call of result.toolCalls) {
        if (call.toolName === CONCLUDE_TOOL) {
          if (attempt) replies.set(attempt.toolCallId, 'Ignored: superseded by a later conclude call.');
          attempt = call;
        } else if (call.dynamic && call.invalid) {
          replies.set(
            call.toolCallId,
            tools.isSessionTool(call.toolName) || call.toolName === UPDATE_HYPOTHESES_TOOL || call.toolName === CAUSES_NEAR_ONSET_TOOL
              ? `Not run: the arguments are not valid JSON (${clip(errorText(call.error), 300)}).`
              : `Not run: there is no tool named "${call.toolName}".`,
          );
        } else if (call.toolName === ASK_PERSON_TOOL) {
          replies.set(call.toolCallId, 'Not asked: give the question as {"question": "..."}, alone.');
        } else if (call.toolName === UPDATE_HYPOTHESES_TOOL) {
          replies.set(call.toolCallId, this.updateHypotheses(session, call.input));
        } else if (call.toolName === CAUSES_NEAR_ONSET_TOOL) {
          // Every query of the detectors is a run the session records and numbers.
          const before = session.runs.length;
          // The answer fits the cap with its JSON whole: runs are shortened or left out, never the candidates.
          replies.set(call.toolCallId, clip(await runCausesNearOnset(session, call.input, 2 * this.runOutputCapBytes), 2 * this.runOutputCapBytes));
          if (session.runs.length > before) ranTools = true;
        } else {
          const decoded = tools.decode(call.toolName, call.input);
          // The ordinal comes from the session's record, never from anything the model wrote.
          const run = await session.runTool(decoded.call);
          ranTools = true;
          if (decoded.call.hypothesisId) this.hypotheses.tested(decoded.call.hypothesisId, decoded.hypothesis, decoded.call.purpose, run.ordinal);
          replies.set(call.toolCallId, describeRun(run, this.runOutputCapBytes));
        }
      }
      await this.hypotheses.publish(session);
      if (ranTools) invalidInARow = 0;

      if (attempt) {
        if (ranTools) {
          replies.set(attempt.toolCallId, 'Not accepted yet: you ran tools in the same answer. Read their results, then call conclude again, alone.');
        } else {
          const check: ConclusionCheck =
            attempt.dynamic && attempt.invalid
              ? { ok: false, problems: [`the arguments are not valid JSON (${clip(errorText(attempt.error), 300)})`] }
              : checkConclusion(attempt.input, session.investigationId, session.runs);
          if (check.ok) return check.conclusion;
          replies.set(attempt.toolCallId, refuse(check));
        }
      }
      messages.push({
        role: 'tool',
        content: result.toolCalls.map((call) => ({
          type: 'tool-result' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'text' as const, value: replies.get(call.toolCallId) ?? 'No result.' },
        })),
      });
    }
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    if (session.signal.aborted) {
      if (this.isCancellation(session.signal, stoppedBy)) throw abortReasonOf(session.signal);
      return this.fallbackConclusion(session, stoppedBy, 'no time was left for a final language model call');
    }
    const tools = new LanguageModelTools(session);
    let request: ModelCall | undefined;
    let estimate = 0;
    for (const cap of [this.runOutputCapBytes, ...EARLY_OUTPUT_CAPS.filter((c) => c < this.runOutputCapBytes)]) {
      const content = `${describeInvestigation(session, cap)}\n\n${describeEarlyStop(stoppedBy, this.hypotheses.list())}`;
      const candidate: ModelCall = { messages: [{ role: 'user', content }], tools: tools.concludeOnly, toolChoice: { type: 'tool', toolName: CONCLUDE_TOOL } };
      estimate = estimateTokens({ system: SYSTEM_PROMPT, messages: candidate.messages, tools: tools.definitions(tools.concludeOnly) });
      if (estimate <= session.budgets.contextTokens) {
        request = candidate;
        break;
      }
    }
    if (!request) return this.fallbackConclusion(session, stoppedBy, 'the evidence no longer fit the context budget for a final language model call');

    let result: CallResult;
    try {
      result = await this.call(session, request);
    } catch (error) {
      if (session.signal.aborted && this.isCancellation(session.signal, stoppedBy)) throw abortReasonOf(session.signal);
      return this.fallbackConclusion(session, stoppedBy, `the final language model call failed: ${errorText(error)}`);
    }
    try {
      await this.recordUsage(session, result, estimate);
    } catch (error) {
      // The run has already stopped at a budget; the usage is recorded and the answer still counts.
      if (!(error instanceof BudgetExhausted)) throw error;
    }
    const attempt = result.toolCalls.find((call) => call.toolName === CONCLUDE_TOOL);
    const found = attempt ? undefined : conclusionInText(result.text);
    const check: ConclusionCheck = attempt
      ? attempt.dynamic && attempt.invalid
        ? { ok: false, problems: ['its arguments were not valid JSON'] }
        : checkConclusion(attempt.input, session.investigationId, session.runs)
      : found && 'value' in found
        ? checkConclusion(found.value, session.investigationId, session.runs)
        : { ok: false, problems: ['it did not call conclude'] };
    if (!check.ok) return this.fallbackConclusion(session, stoppedBy, `the language model's final conclusion was invalid (${check.problems.join('; ')})`);
    const conclusion = check.conclusion;
    if (!conclusion.limitations.some((l) => l.type === 'budget')) {
      conclusion.limitations.push({
        type: 'budget',
        statement: `The ${budgetName(stoppedBy)} budget stopped the investigation before it finished.`,
        runRefs: [],
        messageSequences: [],
      });
    }
    return conclusion;
  }

  /** One model call: the session's signal (cancellation, wall clock) and the per-call timeout abort it. */
  private async call(session: InvestigationSession, request: ModelCall): Promise<CallResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`language model call timed out after ${this.callTimeoutMs} ms`, 'TimeoutError'));
    }, this.callTimeoutMs);
    const onAbort = () => controller.abort(session.signal.reason);
    session.signal.addEventListener('abort', onAbort, { once: true });
    if (session.signal.aborted) onAbort();
    try {
      return await generateText({
        model: this.model,
        system: SYSTEM_PROMPT,
        messages: request.messages,
        tools: request.tools,
        toolChoice: request.toolChoice,
        maxRetries: this.maxRetries,
        maxOutputTokens: this.maxOutputTokens,
        abortSignal: controller.signal,
      });
    } catch (error) {
      if (session.signal.aborted) throw abortReasonOf(session.signal);
      throw providerFailure(error, {
        provider: this.connection.provider,
        model: this.connection.model,
        apiRoot: apiRootOf(this.connection),
        apiKey: this.connection.apiKey,
        timeoutMs: this.callTimeoutMs,
        timedOut,
      });
    } finally {
      clearTimeout(timer);
      session.signal.removeEventListener('abort', onAbort);
    }
  }

  /** The provider's token counts; the estimate stands in only when a provider reports none. */
  private async recordUsage(session: InvestigationSession, result: CallResult, estimate: number): Promise<void> {
    const inputTokens = result.usage.inputTokens ?? estimate;
    await session.recordUsage({ inputTokens, outputTokens: result.usage.outputTokens ?? 0, contextTokens: inputTokens });
  }

  private updateHypotheses(session: InvestigationSession, input: unknown): string {
    const parsed = hypothesesUpdateSchema.safeParse(input);
    if (!parsed.success) return `Not recorded:\n- ${describeIssues(parsed.error).join('\n- ')}`;
    const refs = parsed.data.hypotheses.flatMap((h, i) => h.runRefs.map((ordinal, j) => ({ where: `hypotheses[${i}].runRefs[${j}]`, ordinal })));
    const missing = missingRunProblems(refs, session.runs);
    if (missing.length > 0) return `Not recorded:\n- ${missing.join('\n- ')}`;
    this.hypotheses.replace(parsed.data.hypotheses);
    const count = parsed.data.hypotheses.length;
    return `Recorded ${count} ${count === 1 ? 'hypothesis' : 'hypotheses'}.`;
  }

  /** After a wall-clock stop the session's signal is aborted too; only an explicit cancellation ends the run as cancelled. */
  private isCancellation(signal: AbortSignal, stoppedBy: StoppedBy): boolean {
    const reason: unknown = signal.reason;
    if (reason instanceof InvestigationCancelled) return true;
    if (reason instanceof BudgetExhausted) return false;
    return stoppedBy !== 'wall_clock';
  }

  /** The honest minimum when the model cannot give a final conclusion. */
  private fallbackConclusion(session: InvestigationSession, stoppedBy: StoppedBy, why: string): Conclusion {
    const budget = budgetName(stoppedBy);
    const known = new Set(session.runs.map((run) => run.ordinal));
    const count = session.runs.length;
    return {
      conclusionStatus: 'inconclusive',
      summary: `The investigation stopped when its ${budget} budget was spent, after ${count} tool run${count === 1 ? '' : 's'}, before a conclusion was reached.`,
      impact: { summary: 'Not assessed: the investigation stopped first.', runRefs: [] },
      findings: [],
      hypotheses: this.hypotheses.list().map((h) => ({ ...h, runRefs: h.runRefs.filter((ordinal) => known.has(ordinal)) })),
      actions: [],
      limitations: [{ type: 'budget', statement: clip(`The ${budget} budget stopped the investigation; ${why}.`, 4096), runRefs: [], messageSequences: [] }],
    };
  }
}
