import { createHmac, randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A chat provider on 127.0.0.1 speaking its Web API and OAuth v2 wire formats:
 * `POST /api/chat.postMessage` (Bearer bot token, JSON `{channel, thread_ts, text}`; answers
 * `{ok: true, channel, ts, message}`) and `POST /api/oauth.v2.access` (form-encoded client id,
 * secret, code and redirect URI; answers the bot token, app and workspace). Posts to a channel take
 * the next answer scripted for that channel (429 with Retry-After, `ok: false` with an error code,
 * any HTTP status), else succeed, so a test's script is never spent by another test's posts; every
 * request is recorded. `signChatEvent` builds the v0 signature its events carry.
 */

export type PostAnswer = { kind: 'ok' } | { kind: 'status'; status: number; headers?: Record<string, string> } | { kind: 'error'; error: string };

export interface RecordedPost {
  headers: IncomingHttpHeaders;
  body: { channel?: string; thread_ts?: string; text?: string; [key: string]: unknown };
  /** What it was answered: 200 ok, or the scripted failure. */
  answered: PostAnswer;
}

export interface OAuthApp {
  clientId: string;
  clientSecret: string;
  teamId: string;
  teamName: string;
  appId: string;
}

export class ScriptedChatProvider {
  readonly posts: RecordedPost[] = [];
  readonly exchanges: Array<Record<string, string>> = [];
  private readonly scripts = new Map<string, PostAnswer[]>();
  private readonly codes = new Map<string, string>();
  private tsCounter = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly oauth: OAuthApp,
  ) {}

  static async start(oauth: Partial<OAuthApp> = {}): Promise<ScriptedChatProvider> {
    const app: OAuthApp = { clientId: 'client-1', clientSecret: 'client-secret-1', teamId: 'TOAUTH', teamName: 'OAuth Workspace', appId: 'AOAUTH', ...oauth };
    let provider: ScriptedChatProvider | undefined;
    const server = createServer((req, res) => void provider!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider = new ScriptedChatProvider(server, (server.address() as AddressInfo).port, app);
    return provider;
  }

  /** The Web API base, as a chat integration's `apiBaseUrl`. */
  get apiBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** The authorization page's address (the test plays the browser and never loads it). */
  get authorizeUrl(): string {
    return `http://127.0.0.1:${this.port}/oauth/v2/authorize`;
  }

  /** The next posts to `channel` get these answers, in order; then posts there succeed again. */
  answerNextPosts(channel: string, ...answers: PostAnswer[]): void {
    this.scripts.set(channel, [...(this.scripts.get(channel) ?? []), ...answers]);
  }

  /** A code the token endpoint exchanges (once) for this bot token, as the provider's authorization page would issue it. */
  issueCode(botToken = `xoxb-${randomBytes(8).toString('hex')}`): { code: string; botToken: string } {
    const code = `code-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, botToken);
    return { code, botToken };
  }

  postsIn(channel: string, threadTs: string): RecordedPost[] {
    return this.posts.filter((p) => p.body.channel === channel && p.body.thread_ts === threadTs);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://provider').pathname;
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && path === '/api/chat.postMessage') {
      let body: RecordedPost['body'];
      try {
        body = JSON.parse(raw) as RecordedPost['body'];
      } catch {
        body = {};
      }
      const answered = this.scripts.get(body.channel ?? '')?.shift() ?? { kind: 'ok' };
      this.posts.push({ headers: req.headers, body, answered });
      if (answered.kind === 'status')
        return json(answered.status, { ok: false, error: answered.status === 429 ? 'ratelimited' : 'internal_error' }, answered.headers);
      if (answered.kind === 'error') return json(200, { ok: false, error: answered.error });
      if (!/^Bearer xoxb-/.test(req.headers.authorization ?? '')) return json(200, { ok: false, error: 'not_authed' });
      this.tsCounter += 1;
      const ts = `1700000000.${String(this.tsCounter).padStart(6, '0')}`;
      return json(200, { ok: true, channel: body.channel, ts, message: { type: 'message', text: body.text, ts, thread_ts: body.thread_ts, bot_id: 'BBOT' } });
    }
    if (req.method === 'POST' && path === '/api/oauth.v2.access') {
      const form = Object.fromEntries(new URLSearchParams(raw));
      this.exchanges.push(form);
      if (form.client_id !== this.oauth.clientId || form.client_secret !== this.oauth.clientSecret) return json(200, { ok: false, error: 'invalid_client_id' });
      const botToken = form.code ? this.codes.get(form.code) : undefined;
      if (!botToken) return json(200, { ok: false, error: 'invalid_code' });
      this.codes.delete(form.code);
      return json(200, {
        ok: true,
        access_token: botToken,
        token_type: 'bot',
        scope: 'app_mentions:read,channels:history,groups:history,chat:write',
        bot_user_id: 'UBOT',
        app_id: this.oauth.appId,
        team: { id: this.oauth.teamId, name: this.oauth.teamName },
        enterprise: null,
        authed_user: { id: 'UADMIN' },
      });
    }
    json(404, { ok: false, error: 'unknown_method' });
  }
}

/** The v0 signature headers of a chat event: `X-Svc-Request-Timestamp` and `X-Svc-Signature` over the raw body. */
export function signChatEvent(signingSecret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex');
  return { 'content-type': 'application/json', 'x-svc-request-timestamp': String(timestamp), 'x-svc-signature': `v0=${signature}` };
}

let eventCounter = 0;

/** An `event_callback` envelope as the provider sends it, around a message event. */
export function chatEvent(
  workspace: { teamId: string; appId: string },
  event: { type?: string; user?: string; text: string; channel: string; ts: string; thread_ts?: string; bot_id?: string; subtype?: string },
  eventId = `Ev${Date.now().toString(36)}${(eventCounter += 1)}`,
) {
  return {
    token: 'unused-verification-token',
    team_id: workspace.teamId,
    api_app_id: workspace.appId,
    event: { type: 'app_mention', user: 'U1', event_ts: event.ts, ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
  };
}
