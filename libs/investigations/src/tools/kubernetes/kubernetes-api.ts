import type { ApiException } from '@kubernetes/client-node';
import {
  capText,
  isKubernetesApiException,
  KubernetesAnswerTooLarge,
  kubernetesApis,
  KubernetesApis,
  KubernetesSend,
  kubernetesStatus,
  OutboundError,
  outboundKubernetesSend,
} from '@svc/platform';
import { readThroughRelay } from '../http-json';
import { ToolFailure } from '../tool-failure';
import type { ToolContext } from '../tool.types';

/** The longest message of the API server's a run keeps. */
const MAX_MESSAGE = 512;
/** Pages of a list read at most, and objects a page asks for: 500 objects at most per list. */
export const PAGE_SIZE = 100;
const MAX_PAGES = 5;

/** A DNS label (a namespace) and a DNS subdomain (an object's name), as the API server accepts them. */
export const NAMESPACE_ARGUMENT = {
  type: 'string',
  pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
  maxLength: 63,
  description: 'The namespace, e.g. "shop"',
} as const;
export const NAME_PATTERN = '^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$';

/** The clients of one run, and every request it made (path and query, for the run's sources). */
export interface KubernetesSession {
  apis: KubernetesApis;
  sources: string[];
}

/**
 * The API clients of a run: requests go to the integration's server under the outbound policy
 * (with its CA and token), or through its relay; each request's path and query is a source of
 * the run. A relay answers no faster than its job's timeout, which is the catalog's.
 */
export async function kubernetesSession(context: ToolContext): Promise<KubernetesSession> {
  const sources: string[] = [];
  const { connection } = context;
  let send: KubernetesSend;
  if (connection.relayId) {
    send = async (request) => {
      const source = sourceOf(request.path, request.query);
      return readThroughRelay(context, request.path, request.query, [source]);
    };
  } else {
    if (!context.outbound) throw new Error('kubernetesSession: the tool context has no outbound client (tools run through the ToolCatalog)');
    send = outboundKubernetesSend(context.outbound, connection.baseUrl, connection.headers, { ca: connection.ca, signal: context.signal });
  }
  const recording: KubernetesSend = (request) => {
    sources.push(sourceOf(request.path, request.query));
    return send(request);
  };
  return { apis: await kubernetesApis(recording), sources };
}

function sourceOf(path: string, query: ReadonlyArray<readonly [string, string]>): string {
  const search = new URLSearchParams(query.map(([name, value]) => [name, value] as [string, string])).toString();
  return `/${path}${search ? `?${search}` : ''}`;
}

/** What an error answer says: its status, then the API server's own message (a `Status` body's), never another body. */
export function apiErrorMessage(error: ApiException<unknown>, path: string | undefined): string {
  const status = kubernetesStatus(error.body);
  const meaning = error.code === 401 ? 'the token was refused' : undefined;
  const own = status ? capText(status.message, MAX_MESSAGE) : meaning;
  return `Kubernetes answered HTTP ${error.code}${path ? ` at ${path.split('?')[0]}` : ''}${own ? `: ${own}` : ''}`;
}

/**
 * Any failure of a run's request as the tools' usual failure: the status and the API server's
 * message, the refusal or network code of a connection that could not be made, an answer that is
 * not JSON; the run's sources so far. An abort is rethrown as is, so the catalog can tell
 * cancellation and timeout apart.
 */
export function kubernetesFailure(error: unknown, session: KubernetesSession, context: ToolContext): unknown {
  if (context.signal.aborted || error instanceof ToolFailure) return error;
  const sources = [...session.sources];
  const last = sources[sources.length - 1];
  if (isKubernetesApiException(error)) return new ToolFailure(apiErrorMessage(error, last), sources);
  if (error instanceof OutboundError) {
    const message =
      error.kind === 'refused'
        ? `Refused: ${error.message}`
        : `Could not reach Kubernetes at ${new URL(context.connection.baseUrl).origin}: ${error.code ?? error.kind}`;
    return new ToolFailure(message, sources);
  }
  if (error instanceof KubernetesAnswerTooLarge) return new ToolFailure(`${error.message}; narrow the read (a label selector, one namespace)`, sources);
  if (error instanceof SyntaxError)
    return new ToolFailure(`The answer at ${last?.split('?')[0] ?? 'the API server'} is not JSON: is this Kubernetes?`, sources);
  return error;
}

/** Runs `work` with the session, turning its failures into the tools' usual failure. */
export async function withKubernetes<T>(context: ToolContext, work: (session: KubernetesSession) => Promise<T>): Promise<T> {
  const session = await kubernetesSession(context);
  try {
    return await work(session);
  } catch (error) {
    throw kubernetesFailure(error, session, context);
  }
}

/** Refuses a namespace the integration does not read (config.namespaces), before any request. */
export function checkNamespace(context: ToolContext, namespace: string): void {
  const allowed = context.connection.namespaces;
  if (allowed && !allowed.includes(namespace))
    throw new ToolFailure(`Namespace ${namespace} is not one this integration reads (its namespaces: ${allowed.join(', ')})`, []);
}

/** A list read page by page (`limit` and `continue`), at most MAX_PAGES pages: the items, and whether more were left unread. */
export async function listAll<T>(
  page: (options: { limit: number; _continue?: string }) => Promise<{ items: T[]; metadata?: { _continue?: string } }>,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let next: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const answer = await page({ limit: PAGE_SIZE, ...(next ? { _continue: next } : {}) });
    items.push(...answer.items);
    next = answer.metadata?._continue || undefined;
    if (!next) return { items, more: false };
  }
  return { items, more: true };
}

/** A time of the API's (a Date once read by the client) as ISO 8601, or undefined. */
export function isoTime(value: Date | string | undefined | null): string | undefined {
  if (!value) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A label selector from a workload's `spec.selector` (matchLabels and matchExpressions), as the API server parses it. */
export function selectorString(selector: {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}): string {
  const parts = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`);
  for (const e of selector.matchExpressions ?? []) {
    if (e.operator === 'In') parts.push(`${e.key} in (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${(e.values ?? []).join(',')})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}
