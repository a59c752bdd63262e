import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * A language model provider on 127.0.0.1 that answers from a script, speaking both wire protocols:
 * OpenAI chat completions (`POST /v1/chat/completions`, non-streaming: the AI SDK's generateText
 * does not stream) and Anthropic messages (`POST /v1/messages`). Each request takes the next step
 * of the script; every request is recorded so a test can assert what reached the "model".
 */

export interface ScriptedUsage {
  input: number;
  output: number;
}

export type ScriptedAnswer =
  /** An assistant message calling tools; `input` is sent as JSON, or verbatim when a string (OpenAI only). */
  | { kind: 'tools'; calls: Array<{ name: string; input: unknown }>; text?: string; usage: ScriptedUsage }
  | { kind: 'text'; text: string; usage: ScriptedUsage }
  /** An HTTP error with the provider's error body. */
  | { kind: 'status'; status: number; message: string; headers?: Record<string, string> }
  /** HTTP 200 with a body that is not JSON. */
  | { kind: 'malformed'; body: string };

export interface ScriptStep {
  /** Or made from the request, as a model reads the tool results it was sent. */
  answer: ScriptedAnswer | ((request: ReceivedRequest) => ScriptedAnswer);
  /** Answer only after this long (the client may give up first). */
  delayMs?: number;
}

export type WireProtocol = 'openai' | 'anthropic';

export interface ReceivedRequest {
  protocol: WireProtocol;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The client closed the connection before the answer was sent. */
  abandoned: boolean;
  /** The whole answer was handed to the connection. */
  answered: boolean;
}

const DEFAULT_USAGE: ScriptedUsage = { input: 100, output: 20 };

/** Builders for script steps. */
export const answer = {
  tools: (calls: Array<{ name: string; input: unknown }>, usage = DEFAULT_USAGE, text?: string): ScriptStep => ({
    answer: { kind: 'tools', calls, usage, ...(text ? { text } : {}) },
  }),
  tool: (name: string, input: unknown, usage = DEFAULT_USAGE): ScriptStep => answer.tools([{ name, input }], usage),
  conclude: (conclusion: unknown, usage = DEFAULT_USAGE): ScriptStep => answer.tools([{ name: 'conclude', input: conclusion }], usage),
  text: (text: string, usage = DEFAULT_USAGE): ScriptStep => ({ answer: { kind: 'text', text, usage } }),
  status: (status: number, message: string, headers?: Record<string, string>): ScriptStep => ({
    answer: { kind: 'status', status, message, ...(headers ? { headers } : {}) },
  }),
  malformed: (body = '{"id": "chatcmpl-1", "choices": [ {"message": '): ScriptStep => ({ answer: { kind: 'malformed', body } }),
  after: (delayMs: number, step: ScriptStep): ScriptStep => ({ ...step, delayMs }),
  /** An answer made from what the request sent (the tool results of the previous calls). */
  reading: (make: (request: ReceivedRequest) => ScriptStep): ScriptStep => ({ answer: (request) => make(request).answer as ScriptedAnswer }),
};

const ERROR_TYPES: Record<number, { openai: string; anthropic: string }> = {
  400: { openai: 'invalid_request_error', anthropic: 'invalid_request_error' },
  401: { openai: 'invalid_request_error', anthropic: 'authentication_error' },
  403: { openai: 'invalid_request_error', anthropic: 'permission_error' },
  429: { openai: 'rate_limit_exceeded', anthropic: 'rate_limit_error' },
  500: { openai: 'server_error', anthropic: 'api_error' },
  529: { openai: 'server_error', anthropic: 'overloaded_error' },
};

function openAiBody(n: number, model: string, a: Extract<ScriptedAnswer, { kind: 'tools' | 'text' }>) {
  const toolCalls =
    a.kind === 'tools'
      ? a.calls.map((call, i) => ({
          id: `call_${n}_${i}`,
          type: 'function',
          function: { name: call.name, arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input) },
        }))
      : undefined;
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: a.text ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}), refusal: null },
        logprobs: null,
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: a.usage.input, completion_tokens: a.usage.output, total_tokens: a.usage.input + a.usage.output },
  };
}

function anthropicBody(n: number, model: string, a: Extract<ScriptedAnswer, { kind: 'tools' | 'text' }>) {
  const content: unknown[] = [];
  if (a.text) content.push({ type: 'text', text: a.text });
  if (a.kind === 'tools') {
    a.calls.forEach((call, i) =>
      content.push({ type: 'tool_use', id: `toolu_${n}_${i}`, name: call.name, input: typeof call.input === 'string' ? JSON.parse(call.input) : call.input }),
    );
  }
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: a.kind === 'tools' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: a.usage.input, output_tokens: a.usage.output },
  };
}

function errorBody(protocol: WireProtocol, status: number, message: string) {
  const types = ERROR_TYPES[status] ?? { openai: 'server_error', anthropic: 'api_error' };
  return protocol === 'openai'
    ? { error: { message, type: types.openai, param: null, code: null } }
    : { type: 'error', error: { type: types.anthropic, message } };
}

/** The key a request carried, in the header its protocol uses. */
export function apiKeyOf(request: ReceivedRequest): string | undefined {
  if (request.protocol === 'anthropic') return request.headers['x-api-key'] as string | undefined;
  const auth = request.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

export class ScriptedModelServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly steps: ScriptStep[] = [];
  private served = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<ScriptedModelServer> {
    let instance: ScriptedModelServer | undefined;
    const server = createServer((req, res) => void instance!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    instance = new ScriptedModelServer(server, `http://127.0.0.1:${port}`);
    return instance;
  }

  /** The API root both providers take as their base URL. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** Replaces what is left of the script and forgets earlier requests (answer ids count from 1 again). */
  script(...steps: ScriptStep[]): void {
    this.steps.splice(0, this.steps.length, ...steps);
    this.requests.splice(0, this.requests.length);
    this.served = 0;
  }

  get unanswered(): number {
    return this.steps.length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0];
    const protocol: WireProtocol | undefined = path === '/v1/chat/completions' ? 'openai' : path === '/v1/messages' ? 'anthropic' : undefined;
    if (req.method !== 'POST' || !protocol) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no such route: ${req.method} ${path}` } }));
      return;
    }
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const received: ReceivedRequest = { protocol, path, headers: req.headers, body, abandoned: false, answered: false };
    this.requests.push(received);
    res.on('finish', () => {
      received.answered = true;
    });
    res.on('close', () => {
      if (!res.writableFinished) received.abandoned = true;
    });

    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      if (res.destroyed) return;
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text);
    };
    if (body?.stream === true) {
      send(400, errorBody(protocol, 400, 'the scripted model server does not stream'));
      return;
    }
    const step = this.steps.shift();
    if (!step) {
      send(500, errorBody(protocol, 500, 'the script is exhausted: the test did not expect this request'));
      return;
    }
    const n = ++this.served;
    // The scripted model answers slowly when a step says so: the delay is the behaviour under test.
    // eslint-disable-next-line timing/no-guessed-sleep
    if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    const a = typeof step.answer === 'function' ? step.answer(received) : step.answer;
    const model = typeof body?.model === 'string' ? body.model : 'scripted';
    switch (a.kind) {
      case 'tools':
      case 'text':
        send(200, protocol === 'openai' ? openAiBody(n, model, a) : anthropicBody(n, model, a), protocol === 'anthropic' ? { 'request-id': `req_${n}` } : {});
        return;
      case 'status': {
        // Like some proxies, echo the credential in an authentication error (the client must not repeat it).
        const message = a.status === 401 ? `${a.message} (received key ${apiKeyOf(received) ?? 'none'})` : a.message;
        send(a.status, errorBody(protocol, a.status, message), a.headers);
        return;
      }
      case 'malformed':
        send(200, a.body);
        return;
    }
  }
}

/* What reached the "model", read the same way for both wire protocols. */
export function systemOf(request: ReceivedRequest): string {
  if (request.protocol === 'openai')
    return request.body.messages
      .filter((m: any) => m.role === 'system')
      .map((m: any) => m.content)
      .join('\n');
  return typeof request.body.system === 'string' ? request.body.system : request.body.system.map((b: any) => b.text).join('\n');
}
export function userTextOf(request: ReceivedRequest): string {
  return request.body.messages
    .filter((m: any) => m.role === 'user')
    .flatMap((m: any) => (typeof m.content === 'string' ? [m.content] : m.content.filter((b: any) => b.type === 'text').map((b: any) => b.text)))
    .join('\n');
}
export function toolResultsOf(request: ReceivedRequest): Array<{ id: string; text: string }> {
  if (request.protocol === 'openai')
    return request.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_call_id, text: m.content }));
  return request.body.messages
    .filter((m: any) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m: any) => m.content.filter((b: any) => b.type === 'tool_result'))
    .map((b: any) => ({ id: b.tool_use_id, text: typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text).join('') }));
}
export function offeredToolsOf(request: ReceivedRequest): Record<string, { description: string; parameters: any }> {
  const tools: any[] = request.body.tools ?? [];
  return Object.fromEntries(
    tools.map((t) =>
      request.protocol === 'openai'
        ? [t.function.name, { description: t.function.description, parameters: t.function.parameters }]
        : [t.name, { description: t.description, parameters: t.input_schema }],
    ),
  );
}
export function forcedToolOf(request: ReceivedRequest): string | undefined {
  const choice = request.body.tool_choice;
  return request.protocol === 'openai' ? choice?.function?.name : choice?.type === 'tool' ? choice.name : undefined;
}
