import { userInfo } from 'node:os';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { ORGANIZATION_ID } from '../organization-id';
import { parseTrustedProxies } from '../http/trusted-proxies';
import { OutboundPolicy } from '../outbound/outbound-policy';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every deployment setting the service reads, validated once at boot. Nothing else in the code
 * reads `process.env`; a bad value stops the process with a message naming the variable.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  /** API processes `npm start` runs on PORT (node:cluster when more than one). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SVC_API_PROCESSES = 1;

  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL = 'postgres://localhost:5432/svc';

  @IsUrl({ protocols: ['redis', 'rediss'], require_tld: false, require_protocol: true })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  SVC_PUBLIC_URL = 'http://localhost:8080';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16)
  SVC_BOOTSTRAP_CREDENTIAL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32)
  SVC_SECRET_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  SVC_OIDC_ISSUER?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_OIDC_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_OIDC_CLIENT_SECRET?: string;

  /** The Organization OIDC auto-provisioning adds new users to (its Policy decides the role); the oldest Organization when unset. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(ORGANIZATION_ID, { message: 'SVC_OIDC_ORGANIZATION must be an Organization id' })
  SVC_OIDC_ORGANIZATION?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['openai-compatible', 'anthropic'])
  SVC_LLM_PROVIDER?: 'openai-compatible' | 'anthropic';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  SVC_LLM_BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_LLM_API_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_LLM_MODEL?: string;

  /** How long the language model may take to write a postmortem's narrative, its one retry included (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  SVC_POSTMORTEM_NARRATIVE_TIMEOUT_SECONDS = 120;

  /** Beyond the contract's names: operational knobs with safe defaults. */
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** Prefix of every Redis key the queues write, so several deployments can share one Redis. */
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  SVC_QUEUE_PREFIX = 'svc';

  /** Session lifetimes until Policy overrides them per Organization (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(31 * 24 * 3600)
  SVC_SESSION_IDLE_SECONDS = 12 * 3600;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(365 * 24 * 3600)
  SVC_SESSION_ABSOLUTE_SECONDS = 7 * 24 * 3600;

  /** Largest JSON body accepted on /api/v1 (bytes). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  SVC_JSON_BODY_LIMIT = 1024 * 1024;

  /** Requests per minute one session or API token may make (decisions §12). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  SVC_RATE_LIMIT_PER_MINUTE = 600;

  /**
   * How long a worker's hold on a running job lasts without renewal (seconds): a job of a worker
   * that died is taken up by another worker after about this long.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  SVC_QUEUE_JOB_LOCK_SECONDS = 30;

  /** Connections each process keeps to PostgreSQL. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  SVC_DATABASE_POOL_SIZE = 20;

  /**
   * How long a query may go without an answer from PostgreSQL before it fails (milliseconds): a
   * database that stops answering (a stalled host, a network partition) then yields 503 instead of
   * requests that hang on a pooled connection. Getting a connection is bounded separately (5 s).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  SVC_DATABASE_QUERY_TIMEOUT_MS = 30_000;

  /**
   * Outbound requests to integrations (decisions §13): comma-separated CIDRs or the words
   * loopback, private, link-local. Nothing is denied by default (self-hosted installs reach their
   * own Prometheus); link-local and this service's PostgreSQL and Redis are refused regardless.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_OUTBOUND_DENY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_OUTBOUND_ALLOW?: string;

  /**
   * Defaults that were constants (decisions: every one of them is configurable). Password
   * guessing: failures counted per account and per source address within the window; the next
   * attempt past the limit gets 429 before any password is hashed.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  SVC_SIGN_IN_MAX_FAILURES = 10;

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(24 * 3600)
  SVC_SIGN_IN_WINDOW_SECONDS = 15 * 60;

  /** Alert webhook requests one API process handles at once; past it senders get 503 with Retry-After (decisions §8). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  SVC_ADMISSION_MAX_IN_FLIGHT = 256;

  /** Chat event requests one API process handles at once; past it the provider gets 429 with Retry-After (decisions §9). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  SVC_CHAT_MAX_IN_FLIGHT = 256;

  /**
   * The chat app that connects workspaces by OAuth v2 (POST /integration-types/chat/connect):
   * its client id and secret, the signing secret of its events, the provider's authorization page
   * and its Web API base (the token endpoint is `{base}/oauth.v2.access`, and connected
   * integrations post replies to `{base}/chat.postMessage`). Unset: chat integrations are created
   * with their config and credentials instead.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_CHAT_CLIENT_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_CHAT_CLIENT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_CHAT_SIGNING_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  SVC_CHAT_AUTHORIZE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  SVC_CHAT_API_BASE_URL?: string;

  /** How long an admission waits for a database connection before answering 503 (milliseconds). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(30_000)
  SVC_ADMISSION_CONNECTION_WAIT_MS = 250;

  /** The event stream's `retry:` field: what an EventSource waits before reconnecting (milliseconds, decisions §7). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  SVC_STREAM_RETRY_MS = 2000;

  /** A `: heartbeat` comment after this long without a write, under proxies' idle timeouts (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  SVC_STREAM_HEARTBEAT_SECONDS = 15;

  /** A stream write the client has not taken within this drops the connection (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  SVC_STREAM_WRITE_DEADLINE_SECONDS = 10;

  /**
   * Peers allowed to name the client in X-Forwarded-For (decisions §2): comma-separated
   * addresses, CIDRs or loopback, linklocal, uniquelocal; `none` (or empty) trusts no peer.
   */
  @IsString()
  SVC_TRUSTED_PROXIES = 'loopback';

  /**
   * The port each API process serves the relay protocol (gRPC over HTTP/2) on; unset, relays
   * cannot connect to this deployment. 0 takes any free port (tests).
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  SVC_RELAY_GRPC_PORT?: number;

  /** PEM certificate chain and key files of the relay endpoint's TLS. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_RELAY_TLS_CERT_FILE?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  SVC_RELAY_TLS_KEY_FILE?: string;

  /** Serve the relay endpoint without TLS: for local development only. */
  @Transform(({ value }: { value: unknown }) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value))
  @IsBoolean()
  SVC_RELAY_ALLOW_PLAINTEXT = false;

  /** Both sides of a relay session send a heartbeat this often; three missed end the session (seconds). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  SVC_RELAY_HEARTBEAT_SECONDS = 10;

  /**
   * Register calls (bootstrap token exchanges) per source address per minute on the relay
   * endpoint, counted across API processes; past it, RESOURCE_EXHAUSTED.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  SVC_RELAY_REGISTER_PER_MINUTE = 10;

  /** The origin (scheme, host, port) that unsafe cookie-authenticated requests must name. */
  get publicOrigin(): string {
    return new URL(this.SVC_PUBLIC_URL).origin;
  }

  get chatOAuthConfigured(): boolean {
    return Boolean(
      this.SVC_CHAT_CLIENT_ID && this.SVC_CHAT_CLIENT_SECRET && this.SVC_CHAT_SIGNING_SECRET && this.SVC_CHAT_AUTHORIZE_URL && this.SVC_CHAT_API_BASE_URL,
    );
  }

  get oidcConfigured(): boolean {
    return Boolean(this.SVC_OIDC_ISSUER && this.SVC_OIDC_CLIENT_ID);
  }
}

export class ConfigError extends Error {}

const KNOWN = new Set(
  Object.keys(new AppConfig()).concat([
    'SVC_BOOTSTRAP_CREDENTIAL',
    'SVC_SECRET_KEY',
    'SVC_OIDC_ISSUER',
    'SVC_OIDC_CLIENT_ID',
    'SVC_OIDC_CLIENT_SECRET',
    'SVC_OIDC_ORGANIZATION',
    'SVC_LLM_PROVIDER',
    'SVC_LLM_BASE_URL',
    'SVC_LLM_API_KEY',
    'SVC_LLM_MODEL',
    'SVC_OUTBOUND_DENY',
    'SVC_OUTBOUND_ALLOW',
    'SVC_CHAT_CLIENT_ID',
    'SVC_CHAT_CLIENT_SECRET',
    'SVC_CHAT_SIGNING_SECRET',
    'SVC_CHAT_AUTHORIZE_URL',
    'SVC_CHAT_API_BASE_URL',
    'SVC_RELAY_GRPC_PORT',
    'SVC_RELAY_TLS_CERT_FILE',
    'SVC_RELAY_TLS_KEY_FILE',
  ]),
);

/** Reads and validates the settings; throws a ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of KNOWN) {
    const value = env[key];
    if (value !== undefined) raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, forbidUnknownValues: true });
  const lines = errors.map((e) => {
    const shown = e.property.includes('SECRET') || e.property.includes('CREDENTIAL') || e.property.includes('KEY') ? '(hidden)' : JSON.stringify(e.value);
    return `${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join('; ')}`;
  });
  try {
    OutboundPolicy.parse(config.SVC_OUTBOUND_DENY, config.SVC_OUTBOUND_ALLOW);
  } catch (error) {
    lines.push((error as Error).message);
  }
  try {
    parseTrustedProxies(config.SVC_TRUSTED_PROXIES);
  } catch (error) {
    lines.push((error as Error).message);
  }
  if (config.SVC_RELAY_GRPC_PORT !== undefined && !config.SVC_RELAY_ALLOW_PLAINTEXT && !(config.SVC_RELAY_TLS_CERT_FILE && config.SVC_RELAY_TLS_KEY_FILE)) {
    lines.push('SVC_RELAY_GRPC_PORT: the relay endpoint needs SVC_RELAY_TLS_CERT_FILE and SVC_RELAY_TLS_KEY_FILE, or SVC_RELAY_ALLOW_PLAINTEXT=true');
  }
  if (lines.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  config.DATABASE_URL = withDefaultDatabaseUser(config.DATABASE_URL);
  return config;
}

/** Like libpq: a DATABASE_URL without a user connects as the operating-system user. */
function withDefaultDatabaseUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username) return url;
  parsed.username = userInfo().username;
  return parsed.toString();
}
