import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { AppConfig } from '../config/app-config';
import { describeAddress } from './address-rules';
import { OutboundError } from './outbound-error';
import { OutboundPolicy, OwnDependency } from './outbound-policy';
import { HostLookup, resolveOwnDependencies, systemLookup } from './own-dependencies';

/** The read cap of verify and of every error answer (decisions §13). */
export const DEFAULT_READ_CAP_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;
const MAX_CA_AGENTS = 64;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const LOOKUP_TIMEOUT_MS = 5_000;
/** How long the addresses of PostgreSQL and Redis are trusted before being resolved again. */
const DEPENDENCIES_TTL_MS = 60_000;

export interface OutboundRequest {
  url: URL | string;
  /** Sent to the first origin and to redirects on the same origin; dropped (but `accept`) when a redirect leaves it. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** At most this many bytes of the answer are read and held, the rest is not read; or a cap for each status. */
  maxBytes: number | ((status: number) => number);
  /** Certificate authorities (PEM) this request's https server must be signed by, instead of the client's (a Kubernetes API server's own CA). */
  ca?: string;
}

export interface OutboundAnswer {
  status: number;
  /** The URL that answered, after redirects. */
  url: URL;
  contentType: string | undefined;
  /** At most `maxBytes` of the answer (of its content encoding: no decompression is asked for). */
  body: Buffer;
  /** False when the answer was longer than `maxBytes` (and `body` is its beginning). */
  complete: boolean;
  /** The answer's single-valued headers (POST answers only: `retry-after`, for one). */
  headers?: Record<string, string>;
}

export interface OutboundClientOptions {
  /** Host name resolution (the system's getaddrinfo by default). */
  lookup?: HostLookup;
  connectTimeoutMs?: number;
  /** Extra trusted certificate authorities (PEM) for https integrations; NODE_EXTRA_CA_CERTS works too. */
  ca?: string;
  /** Counts the bytes of answers taken from the connection (the `outbound_response_bytes_total` metric). */
  bytesRead?: { inc(bytes: number): void };
}

export interface OutboundRefusal {
  /** Names the host, the refused address and port, and why. */
  message: string;
}

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(onTimeout()), ms)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number, counted?: { inc(bytes: number): void }): Promise<{ body: Buffer; complete: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    counted?.inc(chunk.length);
    const room = maxBytes - size;
    if (chunk.length > room) {
      // Leaving the loop destroys the stream: nothing more is read from the socket.
      chunks.push(chunk.subarray(0, room));
      return { body: Buffer.concat(chunks), complete: false };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), complete: true };
}

function networkCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  return code;
}

/**
 * The one HTTP client for requests to integrations (verify, investigation tools). Every
 * connection goes through the outbound policy: the host is resolved, every address it resolves
 * to is checked, and the connection is made to the checked address, so a DNS answer that changes
 * between the check and the connection cannot redirect it. Redirects are followed by hand, at
 * most three, each hop checked the same way. Answers are read up to a cap and no further.
 */
export class OutboundClient {
  readonly policy: OutboundPolicy;
  private readonly agent: Agent;
  /** Agents of requests that bring their own CA, by CA (as many as integrations that have one; the oldest closed past the cap). */
  private readonly caAgents = new Map<string, Agent>();
  private readonly connectTimeoutMs: number;
  private readonly lookup: HostLookup;
  private readonly bytesRead?: { inc(bytes: number): void };
  private dependencies?: { at: number; value: Promise<OwnDependency[]> };

  constructor(
    private readonly config: Pick<AppConfig, 'DATABASE_URL' | 'REDIS_URL' | 'SVC_OUTBOUND_DENY' | 'SVC_OUTBOUND_ALLOW'>,
    options: OutboundClientOptions = {},
  ) {
    this.policy = OutboundPolicy.parse(config.SVC_OUTBOUND_DENY, config.SVC_OUTBOUND_ALLOW);
    this.lookup = options.lookup ?? systemLookup;
    this.bytesRead = options.bytesRead;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.agent = this.checkedAgent(options.ca);
  }

  /** An agent whose every connection goes to an address the policy allows, trusting `ca` when given. */
  private checkedAgent(ca: string | undefined): Agent {
    const connect = buildConnector({ timeout: this.connectTimeoutMs, ...(ca ? { ca } : {}) });
    return new Agent({
      connect: (opts, callback) => {
        const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
        this.checkedAddresses(opts.hostname, port).then(
          (addresses) => {
            // Each checked address in turn (localhost may be ::1 then 127.0.0.1); the TLS server
            // name still comes from the URL's host (opts.host).
            const attempt = (i: number): void =>
              connect({ ...opts, hostname: addresses[i] }, (error, socket) => {
                if (error && i + 1 < addresses.length) attempt(i + 1);
                else callback(error, socket as never);
              });
            attempt(0);
          },
          (error: Error) => callback(error, null),
        );
      },
    });
  }

  private agentFor(ca: string | undefined): Agent {
    if (!ca) return this.agent;
    let agent = this.caAgents.get(ca);
    if (!agent) {
      if (this.caAgents.size >= MAX_CA_AGENTS) {
        const [oldest, closing] = this.caAgents.entries().next().value!;
        this.caAgents.delete(oldest);
        void closing.close().catch(() => undefined);
      }
      agent = this.checkedAgent(ca);
      this.caAgents.set(ca, agent);
    }
    return agent;
  }

  /** GET `url`, following redirects under the policy; throws OutboundError when there is no answer to read. */
  async get(request: OutboundRequest): Promise<OutboundAnswer> {
    let url = new URL(request.url);
    let headers = request.headers ?? {};
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new OutboundError('redirect', `A redirect led to ${url.protocol} instead of http or https`, url.origin, undefined, redirects);
      let response: Awaited<ReturnType<Agent['request']>>;
      try {
        response = await this.agentFor(request.ca).request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers,
          signal: request.signal,
        });
      } catch (error) {
        throw this.failure(error, url, redirects, request.signal);
      }
      // Destroying a body that is not read to its end reports an abort: expected here.
      response.body.on('error', () => undefined);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        response.body.destroy();
        if (redirects === MAX_REDIRECTS) throw new OutboundError('redirect', `More than ${MAX_REDIRECTS} redirects`, url.origin, undefined, redirects);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new OutboundError('redirect', 'A redirect named no valid URL', url.origin, undefined, redirects);
        }
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() === 'accept'));
        url = next;
        continue;
      }
      const contentType = typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : undefined;
      try {
        const { body, complete } = await readCapped(
          response.body,
          typeof request.maxBytes === 'number' ? request.maxBytes : request.maxBytes(response.statusCode),
          this.bytesRead,
        );
        return { status: response.statusCode, url, contentType, body, complete };
      } catch (error) {
        throw this.failure(error, url, redirects, request.signal);
      }
    }
  }

  /**
   * POST `body` to `url` under the policy. A redirect is not followed (a POST is not repeated
   * elsewhere): its answer is returned like any other. Throws OutboundError when there is no
   * answer to read.
   */
  async post(request: OutboundRequest & { body: string | Buffer }): Promise<OutboundAnswer> {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('redirect', `${url.protocol} is not http or https`, url.origin);
    let response: Awaited<ReturnType<Agent['request']>>;
    try {
      response = await this.agentFor(request.ca).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: request.headers ?? {},
        body: request.body,
        signal: request.signal,
      });
    } catch (error) {
      throw this.failure(error, url, 0, request.signal);
    }
    response.body.on('error', () => undefined);
    const contentType = typeof response.headers['content-type'] === 'string' ? response.headers['content-type'] : undefined;
    const headers = Object.fromEntries(Object.entries(response.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
    try {
      const { body, complete } = await readCapped(
        response.body,
        typeof request.maxBytes === 'number' ? request.maxBytes : request.maxBytes(response.statusCode),
        this.bytesRead,
      );
      return { status: response.statusCode, url, contentType, body, complete, headers };
    } catch (error) {
      throw this.failure(error, url, 0, request.signal);
    }
  }

  /**
   * Null when every address `url`'s host resolves to now is allowed (or it does not resolve now:
   * that is for verify and the tools to report); else the first refused address and why.
   */
  async refusal(url: string): Promise<OutboundRefusal | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    return this.refusalOf(parsed.hostname, Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80));
  }

  /** The same for a host and port that are not a URL (a datastore's). */
  async refusalOf(hostname: string, port: number): Promise<OutboundRefusal | null> {
    try {
      await this.checkedAddresses(hostname.replace(/^\[|\]$/g, ''), port);
      return null;
    } catch (error) {
      if (error instanceof OutboundError && error.kind === 'refused') return { message: error.message };
      return null;
    }
  }

  /**
   * The addresses a connection to `hostname`:`port` may be made to (all allowed by the policy),
   * for clients that open their own connections (datastores): connect to one of these, not to the
   * name, so that a DNS answer that changes between the check and the connection cannot redirect
   * it. Throws OutboundError (`refused` or `unresolved`).
   */
  async allowedAddresses(hostname: string, port: number): Promise<string[]> {
    return this.checkedAddresses(hostname.replace(/^\[|\]$/g, ''), port);
  }

  /** Ends every connection now (at shutdown: a request still waiting on a silent server does not hold the process). */
  async close(): Promise<void> {
    await Promise.all([this.agent.destroy(), ...[...this.caAgents.values()].map((agent) => agent.destroy())]);
  }

  /** Resolves `hostname`, checks every address, and returns them (all allowed) to connect to. */
  private async checkedAddresses(hostname: string, port: number): Promise<string[]> {
    const origin = `${hostname}:${port}`;
    let addresses: string[];
    if (isIP(hostname)) addresses = [hostname];
    else {
      addresses = await withTimeout(
        this.lookup(hostname),
        LOOKUP_TIMEOUT_MS,
        () => new OutboundError('unresolved', `${hostname} did not resolve within ${LOOKUP_TIMEOUT_MS / 1000} s`, origin, 'ETIMEOUT'),
      ).catch((error: unknown) => {
        if (error instanceof OutboundError) throw error;
        throw new OutboundError('unresolved', `${hostname} does not resolve`, origin, networkCode(error));
      });
      if (addresses.length === 0) throw new OutboundError('unresolved', `${hostname} does not resolve`, origin, 'ENOTFOUND');
    }
    const dependencies = await this.ownDependencies();
    for (const address of addresses) {
      const decision = this.policy.decide(address, port, dependencies);
      if (!decision.allowed) {
        const where = address === hostname ? `${describeAddress(address)} port ${port}` : `${hostname} (resolved to ${describeAddress(address)}) port ${port}`;
        throw new OutboundError('refused', `The outbound policy refuses ${where}: ${decision.reason}`, origin, address);
      }
    }
    return addresses;
  }

  private ownDependencies(): Promise<OwnDependency[]> {
    const now = Date.now();
    if (!this.dependencies || now - this.dependencies.at > DEPENDENCIES_TTL_MS) {
      const value = resolveOwnDependencies(this.config.DATABASE_URL, this.config.REDIS_URL, this.lookup);
      this.dependencies = { at: now, value };
    }
    return this.dependencies.value;
  }

  private failure(error: unknown, url: URL, redirects: number, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted) return error;
    const found =
      error instanceof OutboundError
        ? error
        : (error as { cause?: unknown })?.cause instanceof OutboundError
          ? (error as { cause: OutboundError }).cause
          : undefined;
    if (found) return new OutboundError(found.kind, found.message, url.origin, found.code, redirects);
    const code = networkCode(error) ?? (error as Error)?.name ?? 'error';
    return new OutboundError('unreachable', `No HTTP answer from ${url.origin} (${code})`, url.origin, code, redirects);
  }
}
