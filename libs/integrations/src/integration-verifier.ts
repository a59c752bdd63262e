import { Injectable } from '@nestjs/common';
import {
  capText,
  DEFAULT_READ_CAP_BYTES,
  InvalidInputError,
  KubernetesSend,
  OutboundClient,
  OutboundError,
  outboundKubernetesSend,
  upstreamErrorMessage,
} from '@svc/platform';
import { DATASTORE_NAMES, DatastoreClient } from '@svc/datastores';
import { DatastoreCredentials, datastoreEndpoint } from './catalog/datastore-endpoint';
import { IntegrationType } from './catalog/integration-types';
import { verifyKubernetes } from './kubernetes-access';

export type HttpCredentials = { bearerToken: string } | { username: string; password: string };
/** A Kubernetes integration's: a ServiceAccount token and the API server's CA. */
export type KubernetesCredentials = { bearerToken: string; certificateAuthority?: string };
/** What an integration's credentials hold: HTTP credentials, or a datastore's sign-in. */
export type StoredCredentials = HttpCredentials | KubernetesCredentials | DatastoreCredentials;

/** A read through a relay: the answer's status and (capped) body. */
export type RelayRead = (
  path: string,
  signal: AbortSignal,
  query?: ReadonlyArray<readonly [string, string]>,
) => Promise<{ status: number; body: Buffer; complete: boolean }>;

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
  /** For a system that answers no version: the verification from its answer (a 2xx, complete), instead of `read`. */
  judge?: (body: unknown, config: Record<string, unknown>) => VerifyResult;
  /** Why an error status is what it is, when the answer says so in a way this code recognises (never the body itself). */
  explain?: (status: number, body: Buffer, complete: boolean) => string | undefined;
  /** Headers besides the credentials (a tenant). */
  headers?: (config: Record<string, unknown>) => Record<string, string>;
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

/** The headers every read of a Loki integration carries besides its credentials: the tenant, when it has one. */
export function lokiTenantHeader(config: Record<string, unknown>): Record<string, string> {
  return typeof config.tenant === 'string' ? { 'x-scope-orgid': config.tenant } : {};
}

const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const LOKI_LABELS_SHOWN = 8;

/**
 * Loki's label names (`{"status":"success","data":[...]}`) say it answers, and what it holds: no
 * label at all means no stream in the last 6 hours, which for a tenant is most often a wrong
 * tenant (Loki answers any tenant id, with nothing for one it holds no logs of).
 */
function judgeLokiLabels(body: unknown, config: Record<string, unknown>): VerifyResult {
  const answer = body as { status?: unknown; data?: unknown } | undefined;
  if (answer?.status !== 'success' || !Array.isArray(answer.data) || !answer.data.every((n) => typeof n === 'string'))
    return { outcome: 'failed', detail: "The answer at /loki/api/v1/labels is not Loki's" };
  const tenant = typeof config.tenant === 'string' ? ` for tenant ${config.tenant}` : '';
  const names = (answer.data as string[]).filter((name) => LABEL_NAME.test(name));
  if (names.length === 0)
    return {
      outcome: 'failed',
      detail: tenant
        ? `Loki answered${tenant} but holds no log stream of the last 6 hours: check the tenant (Loki answers any tenant id, with nothing for one it has no logs of)`
        : 'Loki answered but holds no log stream of the last 6 hours: no logs were pushed to it lately',
    };
  const shown = names.slice(0, LOKI_LABELS_SHOWN).join(', ');
  return {
    outcome: 'succeeded',
    detail: `Loki${tenant}: ${names.length} label${names.length === 1 ? '' : 's'} in the last 6 hours (${shown}${names.length > LOKI_LABELS_SHOWN ? ', …' : ''})`,
  };
}

/** Loki's own 401 without a tenant (`no org id`), and what a 401 or 403 means for the account. */
function explainLokiStatus(status: number, body: Buffer, complete: boolean): string | undefined {
  if (status === 401 && complete && body.toString('utf8').trim() === 'no org id')
    return 'Loki is multi-tenant and the request named no tenant: set config.tenant (sent as X-Scope-OrgID)';
  if (status === 401) return 'the credentials were refused';
  if (status === 403) return 'the account may not read this tenant';
  return undefined;
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
  loki: { path: 'loki/api/v1/labels', product: 'Loki', read: () => undefined, judge: judgeLokiLabels, explain: explainLokiStatus, headers: lokiTenantHeader },
};

/** The detail of an error status: the product, status and path, then what this code recognises of the answer. */
function statusDetail(probe: Probe, status: number, body: Buffer, complete: boolean, path: string, through: string): string {
  const message = probe.explain?.(status, body, complete) ?? upstreamErrorMessage(body, status, complete);
  return `${probe.product} answered HTTP ${status} at ${path}${through}${message ? `: ${message}` : ''}`;
}

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
    if (type.id === 'kubernetes') return this.verifyKubernetes(config, credentials, throughRelay);
    if (type.datastore && throughRelay) return this.verifyDatastoreThroughRelay(type, throughRelay);
    if (type.datastore) return this.verifyDatastore(type, config, credentials);
    if (!probe)
      throw new InvalidInputError(
        `${type.displayName} integrations only receive alerts: there is no system to contact. Send a test alert to the webhook instead`,
      );
    if (throughRelay) return this.verifyThroughRelay(probe, throughRelay, config);
    const baseUrl = typeof config.baseUrl === 'string' ? config.baseUrl : undefined;
    if (!baseUrl) throw new InvalidInputError('Set config.baseUrl to verify this integration');
    const url = new URL(probe.path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    try {
      const answer = await this.outbound.get({
        url,
        headers: { accept: 'application/json', ...authorizationHeader(credentials), ...probe.headers?.(config) },
        signal: deadline,
        maxBytes: DEFAULT_READ_CAP_BYTES,
      });
      if (answer.status < 200 || answer.status > 299)
        return { outcome: 'failed', detail: statusDetail(probe, answer.status, answer.body, answer.complete, answer.url.pathname, '') };
      if (!answer.complete)
        return {
          outcome: 'failed',
          detail: `The answer at ${answer.url.pathname} is larger than ${DEFAULT_READ_CAP_BYTES / 1024} KiB: not ${probe.product}'s`,
        };
      if (probe.judge) return probe.judge(parseJson(answer.body), config);
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

  /** A SelfSubjectRulesReview, sent to config.server with the token and CA, or through the relay inside the cluster. */
  private async verifyKubernetes(config: Record<string, unknown>, credentials: StoredCredentials | null, throughRelay: RelayRead | undefined) {
    const deadline = AbortSignal.timeout(TIMEOUT_MS);
    if (throughRelay) {
      // The relay posts the review itself (it reads nothing else by POST): it is given the namespace only.
      const send: KubernetesSend = async (request) => {
        const namespace = request.body ? (JSON.parse(request.body) as { spec?: { namespace?: string } }).spec?.namespace : undefined;
        try {
          return await throughRelay(request.path, deadline, request.method === 'POST' ? [['namespace', namespace ?? '']] : request.query);
        } catch (error) {
          if ((error as Error)?.name === 'TimeoutError') throw new Error(`No answer through the relay within ${TIMEOUT_MS / 1000} s`, { cause: error });
          throw error;
        }
      };
      return verifyKubernetes(send, config, ' (through the relay)');
    }
    const server = typeof config.server === 'string' ? config.server : undefined;
    if (!server) throw new InvalidInputError('Set config.server to verify this integration');
    const stored = credentials as KubernetesCredentials | null;
    const send = outboundKubernetesSend(this.outbound, server, authorizationHeader(credentials), { ca: stored?.certificateAuthority, signal: deadline });
    try {
      return await verifyKubernetes(send, config, '');
    } catch (error) {
      if (deadline.aborted) return { outcome: 'failed' as const, detail: `No answer from the Kubernetes API server within ${TIMEOUT_MS / 1000} s` };
      throw error;
    }
  }

  private async verifyThroughRelay(probe: Probe, read: RelayRead, config: Record<string, unknown>): Promise<VerifyResult> {
    let answer: { status: number; body: Buffer; complete: boolean };
    try {
      answer = await read(probe.path, AbortSignal.timeout(TIMEOUT_MS));
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') return { outcome: 'failed', detail: `No answer through the relay within ${TIMEOUT_MS / 1000} s` };
      return { outcome: 'failed', detail: (error as Error).message };
    }
    if (answer.status < 200 || answer.status > 299)
      return { outcome: 'failed', detail: statusDetail(probe, answer.status, answer.body, answer.complete, `/${probe.path}`, ' (through the relay)') };
    if (probe.judge) {
      if (!answer.complete) return { outcome: 'failed', detail: `The answer at /${probe.path} is not ${probe.product}'s` };
      const judged = probe.judge(parseJson(answer.body), config);
      return { outcome: judged.outcome, detail: `${judged.detail} (through the relay)` };
    }
    const version = answer.complete ? versionOf(probe.read(parseJson(answer.body))) : undefined;
    if (!version) return { outcome: 'failed', detail: `The answer at /${probe.path} is not ${probe.product}'s` };
    if (!probe.account) return { outcome: 'succeeded', detail: `${probe.product} ${version} (through the relay)` };
    const account = await read(probe.account.path, AbortSignal.timeout(TIMEOUT_MS)).catch(() => undefined);
    const body = account && account.status >= 200 && account.status <= 299 && account.complete ? parseJson(account.body) : undefined;
    return withAccount(probe, version, body, ' (through the relay)');
  }
}
