import { Injectable } from '@nestjs/common';
import { capText, DEFAULT_READ_CAP_BYTES, InvalidInputError, OutboundClient, OutboundError, upstreamErrorMessage } from '@svc/platform';
import { DATASTORE_NAMES, DatastoreClient } from '@svc/datastores';
import { DatastoreCredentials, datastoreEndpoint } from './catalog/datastore-endpoint';
import { IntegrationType } from './catalog/integration-types';

export type HttpCredentials = { bearerToken: string } | { username: string; password: string };
/** What an integration's credentials hold: HTTP credentials, or a datastore's sign-in. */
export type StoredCredentials = HttpCredentials | DatastoreCredentials;

/** A read through a relay: the answer's status and (capped) body. */
export type RelayRead = (path: string, signal: AbortSignal) => Promise<{ status: number; body: Buffer; complete: boolean }>;

export interface VerifyResult {
  outcome: 'succeeded' | 'failed';
  /** At most VERIFY_DETAIL_MAX_LENGTH code points. */
  detail: string;
}

const TIMEOUT_MS = 5000;
/** The longest version shown; a longer one is cut, ending with the truncation marker. */
export const VERIFY_VERSION_MAX_LENGTH = 64;
/** The longest detail verify reports and stores (it names the path asked, which the integration's baseUrl chooses). */
export const VERIFY_DETAIL_MAX_LENGTH = 1024;

/** What an account check found: a reason to fail, or a note for the detail. */
type AccountFinding = { excess: string } | { note: string };

interface Probe {
  path: string;
  read: (body: unknown) => unknown;
  product: string;
  /** A second read, of what the account may do (for systems the tools must only read). */
  account?: { path: string; judge: (body: unknown) => AccountFinding | undefined };
}

/**
 * RabbitMQ's management tags: `administrator` may change users, policies and queues, and
 * `policymaker` and `management` may manage their virtual hosts; `monitoring` sees every
 * connection and node, and the queues of the virtual hosts it may access. Virtual host
 * permissions are not visible to a non-administrator, so they are named, not checked.
 */
function judgeRabbitmqAccount(body: unknown): AccountFinding | undefined {
  const me = body as { name?: unknown; tags?: unknown };
  if (typeof me?.name !== 'string') return undefined;
  const tags = Array.isArray(me.tags) ? me.tags.map(String) : typeof me.tags === 'string' ? me.tags.split(',').filter(Boolean) : [];
  if (tags.includes('administrator'))
    return {
      excess: `as ${me.name}: the account is an administrator (it could change users, policies and queues); the tools only read, so give them a user tagged monitoring`,
    };
  if (!tags.includes('monitoring'))
    return {
      note: `as ${me.name} (tags: ${tags.join(', ') || 'none'}): sees only the virtual hosts it has permissions on; tag it monitoring to see every queue and connection`,
    };
  return {
    note: `as ${me.name} (monitoring): sees every connection, and the queues of the virtual hosts it may access (permissions "^$" "^$" "^$" grant access and nothing else)`,
  };
}

/** What verify asks of each type, and how to read the answer. */
const PROBES: Record<string, Probe> = {
  rabbitmq: {
    path: 'api/overview',
    product: 'RabbitMQ',
    read: (b) => (b as { rabbitmq_version?: unknown }).rabbitmq_version,
    account: { path: 'api/whoami', judge: judgeRabbitmqAccount },
  },
  prometheus: { path: 'api/v1/status/buildinfo', product: 'Prometheus', read: (b) => (b as { data?: { version?: unknown } }).data?.version },
  alertmanager: { path: 'api/v2/status', product: 'Alertmanager', read: (b) => (b as { versionInfo?: { version?: unknown } }).versionInfo?.version },
  grafana: { path: 'api/health', product: 'Grafana', read: (b) => (b as { version?: unknown }).version },
};

export function authorizationHeader(credentials: StoredCredentials | null): Record<string, string> {
  if (!credentials) return {};
  if ('bearerToken' in credentials) return { authorization: `Bearer ${credentials.bearerToken}` };
  return { authorization: `Basic ${Buffer.from(`${credentials.username ?? ''}:${credentials.password ?? ''}`).toString('base64')}` };
}

/** A version string as shown: printable ASCII without spaces, cut to VERIFY_VERSION_MAX_LENGTH, or nothing. */
function versionOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) return undefined;
  return capText(value, VERIFY_VERSION_MAX_LENGTH);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The verify result once the product and version are known, with what the account check found (an unreadable account answer is said, not guessed). */
function withAccount(probe: Probe, version: string, body: unknown, through: string): VerifyResult {
  const found = probe.account!.judge(body);
  const who = `${probe.product} ${version}${through}`;
  if (!found) return { outcome: 'succeeded', detail: `${who}: could not read what the account may do at /${probe.account!.path}` };
  if ('excess' in found) return { outcome: 'failed', detail: `${who} ${found.excess}` };
  return { outcome: 'succeeded', detail: `${who} ${found.note}` };
}

/**
 * Contacts the system behind an integration with its stored credentials, through the outbound
 * policy, and reports what it found: the product and version on success, the HTTP status (and a
 * recognised API error message) otherwise. Failures to connect all read the same and take the
 * same time, whether the port was closed, filtered or not speaking HTTP: verify is not a port scanner.
 */
@Injectable()
export class IntegrationVerifier {
  constructor(
    private readonly outbound: OutboundClient,
    private readonly datastores: DatastoreClient,
  ) {}

  async verify(
    type: IntegrationType,
    config: Record<string, unknown>,
    credentials: StoredCredentials | null,
    /** For an integration bound to a relay: reads `path` through it. */
    throughRelay?: RelayRead,
  ): Promise<VerifyResult> {
    const result = await this.probe(type, config, credentials, throughRelay);
    return { outcome: result.outcome, detail: capText(result.detail, VERIFY_DETAIL_MAX_LENGTH) };
  }

  private async probe(
    type: IntegrationType,
    config: Record<string, unknown>,
    credentials: StoredCredentials | null,
    throughRelay: RelayRead | undefined,
  ): Promise<VerifyResult> {
    const probe = PROBES[type.id];
    if (type.id === 'chat')
      throw new InvalidInputError('Chat integrations have no probe: an event from the workspace, and the reply in its thread, show the connection works');
    if (type.webhookFormat === 'changes')
      throw new InvalidInputError(
        'Change-event integrations only receive changes: there is no system to contact. Send a test change event to the webhook instead',
      );
    if (type.datastore && throughRelay) return this.verifyDatastoreThroughRelay(type, throughRelay);
    if (type.datastore) return this.verifyDatastore(type, config, credentials);
    if (!probe)
      throw new InvalidInputError(
        `${type.displayName} integrations only receive alerts: there is no system to contact. Send a test alert to the webhook instead`,
      );
    if (throughRelay) return this.verifyThroughRelay(probe, throughRelay);
    const baseUrl = typeof config.baseUrl === 'string' ? config.baseUrl : undefined;
    if (!baseUrl) throw new InvalidInputError('Set config.baseUrl to verify this integration');
    const url = new URL(probe.path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    try {
      const answer = await this.outbound.get({
        url,
        headers: { accept: 'application/json', ...authorizationHeader(credentials) },
        signal: deadline,
        maxBytes: DEFAULT_READ_CAP_BYTES,
      });
      if (answer.status < 200 || answer.status > 299) {
        const message = upstreamErrorMessage(answer.body, answer.status, answer.complete);
        return { outcome: 'failed', detail: `${probe.product} answered HTTP ${answer.status} at ${answer.url.pathname}${message ? `: ${message}` : ''}` };
      }
      if (!answer.complete)
        return {
          outcome: 'failed',
          detail: `The answer at ${answer.url.pathname} is larger than ${DEFAULT_READ_CAP_BYTES / 1024} KiB: not ${probe.product}'s`,
        };
      const version = versionOf(probe.read(parseJson(answer.body)));
      if (!version) return { outcome: 'failed', detail: `The answer at ${answer.url.pathname} is not ${probe.product}'s` };
      if (!probe.account) return { outcome: 'succeeded', detail: `${probe.product} ${version}` };
      const account = await this.outbound.get({
        url: new URL(probe.account.path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`),
        headers: { accept: 'application/json', ...authorizationHeader(credentials) },
        signal: deadline,
        maxBytes: DEFAULT_READ_CAP_BYTES,
      });
      return withAccount(probe, version, account.status >= 200 && account.status <= 299 && account.complete ? parseJson(account.body) : undefined, '');
    } catch (error) {
      if (error instanceof OutboundError && (error.kind === 'refused' || error.kind === 'redirect')) return { outcome: 'failed', detail: error.message };
      if (error instanceof OutboundError && error.kind === 'unresolved')
        return { outcome: 'failed', detail: `Could not connect to ${url.origin}: the host name does not resolve` };
      const origin = error instanceof OutboundError ? error.origin : url.origin;
      // Answered at the deadline whatever happened, so timing does not tell a closed port from a filtered one either.
      if (!deadline.aborted) await new Promise((resolve) => deadline.addEventListener('abort', resolve, { once: true }));
      return {
        outcome: 'failed',
        detail: `Could not connect to ${origin}: no HTTP answer within ${TIMEOUT_MS / 1000} s (refused, reset, filtered or not HTTP)`,
      };
    }
  }

  /**
   * Connects, signs in and reads what the account may do (the datastores library's verify). As
   * for HTTP systems, a failure to reach the datastore reads the same and is answered at the
   * deadline whatever happened; a sign-in, database or TLS refusal is the datastore's own answer.
   */
  private async verifyDatastore(type: IntegrationType, config: Record<string, unknown>, credentials: StoredCredentials | null): Promise<VerifyResult> {
    const kind = type.datastore!;
    const endpoint = datastoreEndpoint(kind, config, credentials as DatastoreCredentials | null);
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    const result = await this.datastores.verify(endpoint, deadline).catch(() => ({ outcome: 'failed' as const, detail: '', failure: 'unreachable' as const }));
    if (result.failure !== 'unreachable') return { outcome: result.outcome, detail: result.detail };
    if (!deadline.aborted) await new Promise((resolve) => deadline.addEventListener('abort', resolve, { once: true }));
    const name = DATASTORE_NAMES[kind];
    return {
      outcome: 'failed',
      detail: `Could not connect to ${endpoint.host}:${endpoint.port}: no ${name} answer within ${TIMEOUT_MS / 1000} s (refused, reset, filtered or not ${name})`,
    };
  }

  /** The relay connects, signs in and reads what the account may do, next to the datastore; its answer is the verification. */
  private async verifyDatastoreThroughRelay(type: IntegrationType, read: RelayRead): Promise<VerifyResult> {
    let answer: { status: number; body: Buffer; complete: boolean };
    try {
      answer = await read('verify', AbortSignal.timeout(TIMEOUT_MS));
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') return { outcome: 'failed', detail: `No answer through the relay within ${TIMEOUT_MS / 1000} s` };
      return { outcome: 'failed', detail: (error as Error).message };
    }
    const found = answer.complete ? (parseJson(answer.body) as { outcome?: unknown; detail?: unknown } | undefined) : undefined;
    if ((found?.outcome !== 'succeeded' && found?.outcome !== 'failed') || typeof found.detail !== 'string')
      return { outcome: 'failed', detail: `The relay's answer is not a ${type.displayName} verification` };
    return { outcome: found.outcome, detail: `${found.detail} (through the relay)` };
  }

  private async verifyThroughRelay(probe: Probe, read: RelayRead): Promise<VerifyResult> {
    let answer: { status: number; body: Buffer; complete: boolean };
    try {
      answer = await read(probe.path, AbortSignal.timeout(TIMEOUT_MS));
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') return { outcome: 'failed', detail: `No answer through the relay within ${TIMEOUT_MS / 1000} s` };
      return { outcome: 'failed', detail: (error as Error).message };
    }
    if (answer.status < 200 || answer.status > 299) {
      const message = upstreamErrorMessage(answer.body, answer.status, answer.complete);
      return {
        outcome: 'failed',
        detail: `${probe.product} answered HTTP ${answer.status} at /${probe.path} (through the relay)${message ? `: ${message}` : ''}`,
      };
    }
    const version = answer.complete ? versionOf(probe.read(parseJson(answer.body))) : undefined;
    if (!version) return { outcome: 'failed', detail: `The answer at /${probe.path} is not ${probe.product}'s` };
    if (!probe.account) return { outcome: 'succeeded', detail: `${probe.product} ${version} (through the relay)` };
    const account = await read(probe.account.path, AbortSignal.timeout(TIMEOUT_MS)).catch(() => undefined);
    const body = account && account.status >= 200 && account.status <= 299 && account.complete ? parseJson(account.body) : undefined;
    return withAccount(probe, version, body, ' (through the relay)');
  }
}
