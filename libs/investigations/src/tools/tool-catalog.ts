import { DatastoreClient } from '@svc/datastores';
import { AppConfig, OutboundClient } from '@svc/platform';
import { ArgumentsValidator } from './arguments-validator';
import { PRODUCT_NAMES } from './http-json';
import { INVESTIGATION_TOOLS } from './investigation-tools';
import { capOutput } from './output-cap';
import { ToolFailure } from './tool-failure';
import type { DataSourceType, RelayReader, ToolContext, ToolDefinition, ToolDescriptor, ToolResult, ToolWindow } from './tool.types';

export const DEFAULT_TOOL_TIMEOUT_MS = 15_000;
export const DEFAULT_OUTPUT_CAP_BYTES = 64 * 1024;
export const MAX_TOOL_ERROR_LENGTH = 4096;
const MAX_SUMMARY_LENGTH = 1024;
const MIN_OUTPUT_CAP_BYTES = 1024;
const TOOL_NAME = /^[A-Za-z0-9_.]{1,64}$/;

export interface ToolCatalogOptions {
  /** Per run, from the call to the result (default 15 s). */
  timeoutMs?: number;
  /** Serialized JSON bytes of a result's output (default 64 KiB, at least 1 KiB). */
  outputCapBytes?: number;
  /**
   * The client tools call integrations through. The processes give theirs (built from their
   * configuration); without one, a client under the default policy (link-local and the default
   * PostgreSQL and Redis addresses refused) is made.
   */
  outbound?: OutboundClient;
  /** How tools read integrations bound to a relay (the worker gives its relay job service). */
  relay?: RelayReader;
  /** How tools read datastores; by default one under the `outbound` client's policy. */
  datastores?: DatastoreClient;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The investigation tools every reasoner sees, and the one way to run them: arguments checked
 * against the published schema, a per-run timeout, the caller's cancellation, an output cap.
 * A run never throws for a tool-level problem; it returns a failed result that says why.
 */
export class ToolCatalog {
  readonly timeoutMs: number;
  readonly outputCapBytes: number;
  private readonly outbound: OutboundClient;
  private readonly relay?: RelayReader;
  private readonly datastores: DatastoreClient;
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly validator = new ArgumentsValidator();

  constructor(definitions: ReadonlyArray<ToolDefinition> = INVESTIGATION_TOOLS, options: ToolCatalogOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    this.outputCapBytes = options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES;
    this.outbound = options.outbound ?? new OutboundClient(new AppConfig());
    this.relay = options.relay;
    this.datastores = options.datastores ?? new DatastoreClient(this.outbound);
    if (!(this.timeoutMs > 0)) throw new Error('ToolCatalog: timeoutMs must be positive');
    if (!(this.outputCapBytes >= MIN_OUTPUT_CAP_BYTES)) throw new Error(`ToolCatalog: outputCapBytes must be at least ${MIN_OUTPUT_CAP_BYTES}`);
    for (const definition of definitions) {
      if (!TOOL_NAME.test(definition.name)) throw new Error(`ToolCatalog: tool name ${definition.name} must be 1-64 letters, digits, '_' or '.'`);
      if (this.tools.has(definition.name)) throw new Error(`ToolCatalog: tool ${definition.name} is declared twice`);
      const schema = definition.argumentsSchema;
      if (schema.type !== 'object' || schema.additionalProperties !== false)
        throw new Error(`ToolCatalog: ${definition.name}'s arguments schema must be an object with additionalProperties false`);
      this.validator.add(definition.name, schema);
      this.tools.set(definition.name, definition);
    }
  }

  /** What a reasoner is shown: every tool, or those of one integration type. */
  list(integrationType?: DataSourceType): ToolDescriptor[] {
    return [...this.tools.values()]
      .filter((tool) => !integrationType || tool.integrationType === integrationType)
      .map(({ name, description, integrationType: type, argumentsSchema }) => ({ name, description, integrationType: type, argumentsSchema }));
  }

  get(name: string): ToolDescriptor | undefined {
    return this.list().find((tool) => tool.name === name);
  }

  /** Null when `args` are valid for the tool, else why not (the same message a run would fail with). */
  validate(name: string, args: unknown): string | null {
    if (!this.tools.has(name)) return `Unknown tool ${name}`;
    const problem = this.validator.check(name, args ?? {}) ?? this.tools.get(name)!.check?.((args ?? {}) as Record<string, unknown>) ?? null;
    return problem && `Invalid arguments: ${problem}`;
  }

  async run(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    try {
      return await this.runChecked(name, args ?? {}, context);
    } catch (error) {
      return this.failed(name, `Unexpected failure: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private async runChecked(name: string, args: unknown, context: ToolContext): Promise<ToolResult> {
    const definition = this.tools.get(name);
    if (!definition) return this.failed(name, `Unknown tool ${name}; the tools are ${[...this.tools.keys()].join(', ')}`);
    if (definition.integrationType !== context.connection.type) {
      return this.failed(
        name,
        `${name} reads ${PRODUCT_NAMES[definition.integrationType]} integrations; integration ${context.connection.integrationId} is ${PRODUCT_NAMES[context.connection.type] ?? context.connection.type}`,
      );
    }
    const invalid = this.validate(name, args);
    if (invalid) return this.failed(name, invalid);
    if (context.signal.aborted) return this.failed(name, `Cancelled before ${name} started`);

    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException(`No answer within ${this.timeoutMs} ms`, 'TimeoutError')), this.timeoutMs);
    const signal = AbortSignal.any([context.signal, timeout.signal]);
    let onAbort: () => void = () => undefined;
    // A tool that ignores its signal still gives the caller its answer on time.
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const running = Promise.resolve().then(() =>
      definition.run(args as Record<string, unknown>, {
        ...context,
        signal,
        outbound: this.outbound,
        relay: this.relay,
        datastores: this.datastores,
        timeoutMs: this.timeoutMs,
      }),
    );
    running.catch(() => undefined);
    aborted.catch(() => undefined);
    try {
      return this.finish(name, await Promise.race([running, aborted]));
    } catch (error) {
      if (context.signal.aborted) return this.failed(name, `Cancelled: the run was stopped before ${name} finished`);
      if (timeout.signal.aborted)
        return this.failed(
          name,
          `Timed out: ${PRODUCT_NAMES[definition.integrationType]} gave no complete answer within ${this.timeoutMs / 1000} s${context.connection.relayId ? ' (through its relay)' : ''}`,
        );
      if (error instanceof ToolFailure) return this.failed(name, error.message, error.sources, error.window);
      return this.failed(name, `Unexpected failure: ${(error as Error)?.message ?? String(error)}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private finish(name: string, result: ToolResult): ToolResult {
    const sources = Array.isArray(result.sources) ? result.sources.map(String) : [];
    if (result.outcome !== 'succeeded') return this.failed(name, result.error ?? result.summary ?? 'failed', sources, result.window);
    const capped = capOutput(result.output, this.outputCapBytes);
    let summary = result.summary;
    if (capped.truncated) {
      summary += ` Output cut to ${this.outputCapBytes} bytes: kept ${capped.notes.map((n) => `${n.kept} of ${n.of} ${n.unit} at ${n.path}`).join('; ')}.`;
    }
    return {
      outcome: 'succeeded',
      summary: cut(summary, MAX_SUMMARY_LENGTH),
      output: capped.output,
      truncated: capped.truncated,
      sources,
      ...(result.window ? { window: result.window } : {}),
    };
  }

  private failed(name: string, error: string, sources: string[] = [], window?: ToolWindow): ToolResult {
    const text = cut(error, MAX_TOOL_ERROR_LENGTH);
    return {
      outcome: 'failed',
      summary: cut(`${name} failed: ${text}`, 300),
      output: null,
      truncated: false,
      sources,
      error: text,
      ...(window ? { window } : {}),
    };
  }
}
