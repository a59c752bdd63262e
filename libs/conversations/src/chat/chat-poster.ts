import { Injectable } from '@nestjs/common';
import { Clock, OutboundClient, OutboundError } from '@svc/platform';

/** Tries of one reply at most (decisions §9). */
export const MAX_POST_TRIES = 5;
/** The longest wait between tries, whatever Retry-After says (seconds). */
const MAX_WAIT_SECONDS = 30;
/** The first backoff after a 5xx or no answer; doubled at every try (milliseconds). */
const BACKOFF_MS = 1000;
const TIMEOUT_MS = 10_000;
/** `ok: false` errors worth another try: the provider's own trouble or its rate limit. */
const TRANSIENT_ERRORS = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

export type PostOutcome = { posted: true; ts: string | null; tries: number } | { posted: false; error: string; tries: number };

type Attempt = { kind: 'posted'; ts: string | null } | { kind: 'transient'; error: string; waitMs?: number } | { kind: 'permanent'; error: string };

/**
 * Posts a reply in a chat thread through the provider's Web API: `POST {apiBaseUrl}/chat.postMessage`
 * with the bot token as Bearer and `{channel, thread_ts, text}` as JSON, through the outbound
 * client (the policy applies: apiBaseUrl is the tenant's). 429 waits for Retry-After, 5xx, no
 * answer and transient `ok: false` errors back off and try again, up to MAX_POST_TRIES; any other
 * `ok: false` (invalid_auth, channel_not_found, …) or 4xx is final. The waits are the process's
 * `Clock`'s.
 */
@Injectable()
export class ChatPoster {
  constructor(
    private readonly outbound: OutboundClient,
    private readonly clock: Clock,
  ) {}

  async post(connection: { apiBaseUrl: string; botToken: string }, message: { channel: string; threadTs: string; text: string }): Promise<PostOutcome> {
    for (let tries = 1; ; tries++) {
      const attempt = await this.attempt(connection, message);
      if (attempt.kind === 'posted') return { posted: true, ts: attempt.ts, tries };
      if (attempt.kind === 'permanent' || tries >= MAX_POST_TRIES) return { posted: false, error: attempt.error, tries };
      await this.clock.sleep(attempt.waitMs ?? Math.min(BACKOFF_MS * 2 ** (tries - 1), MAX_WAIT_SECONDS * 1000));
    }
  }

  private async attempt(connection: { apiBaseUrl: string; botToken: string }, message: { channel: string; threadTs: string; text: string }): Promise<Attempt> {
    const url = `${connection.apiBaseUrl.replace(/\/$/, '')}/chat.postMessage`;
    let answer;
    try {
      answer = await this.outbound.post({
        url,
        headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${connection.botToken}`, accept: 'application/json' },
        body: JSON.stringify({ channel: message.channel, thread_ts: message.threadTs, text: message.text, unfurl_links: false }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        maxBytes: 64 * 1024,
      });
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') return { kind: 'permanent', error: error.message };
      return {
        kind: 'transient',
        error: error instanceof OutboundError ? error.message : `No answer from ${new URL(url).origin} within ${TIMEOUT_MS / 1000} s`,
      };
    }
    if (answer.status === 429) {
      const retryAfter = Number(answer.headers?.['retry-after']);
      const seconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter, MAX_WAIT_SECONDS) : 1;
      return { kind: 'transient', error: 'chat.postMessage answered HTTP 429', waitMs: seconds * 1000 };
    }
    if (answer.status >= 500) return { kind: 'transient', error: `chat.postMessage answered HTTP ${answer.status}` };
    let body: { ok?: unknown; error?: unknown; ts?: unknown } | undefined;
    try {
      body = JSON.parse(answer.body.toString('utf8')) as typeof body;
    } catch {
      body = undefined;
    }
    if (answer.status >= 200 && answer.status < 300 && body?.ok === true) return { kind: 'posted', ts: typeof body.ts === 'string' ? body.ts : null };
    // Only the provider's error code is kept: an upstream body is never copied into records.
    const code = typeof body?.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? body.error : undefined;
    const error = `chat.postMessage answered HTTP ${answer.status}${code ? ` ok:false ${code}` : body?.ok === false ? ' ok:false' : ' without the expected JSON'}`;
    if (code && TRANSIENT_ERRORS.has(code)) return { kind: 'transient', error };
    return { kind: 'permanent', error };
  }
}
