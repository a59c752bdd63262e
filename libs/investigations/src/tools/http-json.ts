import { DEFAULT_READ_CAP_BYTES, OutboundAnswer, OutboundError, upstreamErrorMessage } from '@svc/platform';
import { DATASTORE_NAMES } from '@svc/datastores';
import { ToolFailure } from './tool-failure';
import type { DataSourceType, ToolContext } from './tool.types';

/**
 * Past this, a successful answer is refused rather than held in memory. It is larger than the
 * 64 KiB output cap because the cap cuts parsed JSON by structure (keeping whole series and
 * saying how many): a read cut at 64 KiB could not be parsed at all. Error answers are read to
 * 64 KiB at most.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export const PRODUCT_NAMES: Record<DataSourceType, string> = {
  prometheus: 'Prometheus',
  alertmanager: 'Alertmanager',
  rabbitmq: 'RabbitMQ',
  loki: 'Loki',
  kubernetes: 'Kubernetes',
  ...DATASTORE_NAMES,
};

export interface JsonAnswer {
  body: unknown;
  /** Path and query that were read, for ToolResult.sources. */
  source: string;
}

/** The URL a request goes to: `path` (no leading slash) under the base URL, as the integration verifier joins them. */
export function toolUrl(baseUrl: string, path: string, query: ReadonlyArray<readonly [string, string]>): URL {
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of query) url.searchParams.append(name, value);
  return url;
}

/** How a failure to get an answer reads in a run: the policy's refusal in full, a network failure by its code. */
function unreachable(product: string, url: URL, error: OutboundError): string {
  const hop = error.redirects > 0 ? `after a redirect to ${error.origin}: ` : '';
  if (error.kind === 'refused') return `Refused: ${hop}${error.message}`;
  if (error.kind === 'redirect') return `Could not reach ${product} at ${url.origin}: ${error.message}`;
  return `Could not reach ${product} at ${url.origin}: ${hop}${error.code ?? error.kind}`;
}

/** An answer as it came, before it is read as JSON: its status, body (capped), and what was read. */
export interface RawAnswer {
  status: number;
  body: Buffer;
  complete: boolean;
  pathname: string;
  /** Path and query that were read, for ToolResult.sources. */
  source: string;
}

/**
 * What an error answer says, when its product says it in a way the tool recognises (Loki's plain
 * text errors): used instead of the generic recognition of API error bodies. Never the body itself.
 */
export type ErrorExplainer = (status: number, body: Buffer, complete: boolean) => string | undefined;

/**
 * GET a JSON answer from the connection's API through the outbound client (the policy checked at
 * every connection and redirect; the credentials not sent past a redirect to another origin): its
 * headers, `accept: application/json`, the context's signal. Anything but a 2xx JSON answer
 * becomes a ToolFailure naming the status and only a recognised API error's message; an abort is
 * rethrown as is so the catalog can tell cancellation and timeout apart.
 */
export async function getJson(
  context: ToolContext,
  path: string,
  query: ReadonlyArray<readonly [string, string]> = [],
  explain?: ErrorExplainer,
): Promise<JsonAnswer> {
  const answer = await getAnswer(context, path, query);
  return readAnswer(PRODUCT_NAMES[context.connection.type], answer, explain);
}

/**
 * The answer to a GET of the connection's API, directly or through the relay the integration is
 * bound to (which runs it against the system only it can reach, capped as a direct read is),
 * whatever its status: for a caller to whom a status is an answer, such as a 404 from an endpoint
 * a server does not offer. No answer at all is a ToolFailure; an abort is rethrown as is.
 */
export async function getAnswer(context: ToolContext, path: string, query: ReadonlyArray<readonly [string, string]> = []): Promise<RawAnswer> {
  if (context.connection.relayId) {
    const search = new URLSearchParams(query.map(([name, value]) => [name, value] as [string, string])).toString();
    const source = `/${path}${search ? `?${search}` : ''}`;
    const answer = await readThroughRelay(context, path, query, [source]);
    return { ...answer, pathname: `/${path}`, source };
  }
  const { baseUrl, headers, type } = context.connection;
  if (!context.outbound) throw new Error('getJson: the tool context has no outbound client (tools run through the ToolCatalog)');
  const product = PRODUCT_NAMES[type];
  const url = toolUrl(baseUrl, path, query);
  const source = `${url.pathname}${url.search}`;
  const requestHeaders: Record<string, string> = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'accept'));
  requestHeaders.accept = 'application/json';
  let answer: OutboundAnswer;
  try {
    answer = await context.outbound.get({
      url,
      headers: requestHeaders,
      signal: context.signal,
      maxBytes: (status) => (status >= 200 && status <= 299 ? MAX_ANSWER_BYTES : DEFAULT_READ_CAP_BYTES),
    });
  } catch (error) {
    if (context.signal.aborted || !(error instanceof OutboundError)) throw error;
    throw new ToolFailure(unreachable(product, url, error), [source]);
  }
  return { status: answer.status, body: answer.body, complete: answer.complete, pathname: answer.url.pathname, source };
}

/**
 * One read by the relay the connection is bound to (an HTTP path, or a datastore's named read),
 * capped as a direct read is: its answer, or a ToolFailure naming `sources` that says why there
 * is none (an abort is rethrown as is, so the catalog can tell cancellation and timeout apart).
 */
export async function readThroughRelay(
  context: ToolContext,
  path: string,
  query: ReadonlyArray<readonly [string, string]>,
  sources: string[],
): Promise<{ status: number; body: Buffer; complete: boolean }> {
  const { relayId, organizationId, integrationId, type } = context.connection;
  if (!context.relay || !organizationId) throw new Error('readThroughRelay: the tool context has no relay reader (tools run through the ToolCatalog)');
  try {
    return await context.relay.read({
      organizationId,
      relayId: relayId!,
      integrationId,
      integrationType: type,
      path,
      query,
      signal: context.signal,
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs: context.timeoutMs ?? 15_000,
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new ToolFailure((error as Error).message, sources);
  }
}

/** A 2xx complete JSON answer's body, else a ToolFailure naming the status and only a recognised API error's message. */
export function readAnswer(product: string, answer: RawAnswer, explain?: ErrorExplainer): JsonAnswer {
  const { source } = answer;
  if (answer.status < 200 || answer.status > 299) {
    // Only the status and a recognised API error's message: never the body of whatever answered.
    const message = explain?.(answer.status, answer.body, answer.complete) ?? upstreamErrorMessage(answer.body, answer.status, answer.complete);
    throw new ToolFailure(`${product} answered HTTP ${answer.status} at ${answer.pathname}${message ? `: ${message}` : ''}`, [source]);
  }
  if (!answer.complete) {
    throw new ToolFailure(
      `The answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; narrow the query (fewer series, a shorter range or a larger step)`,
      [source],
    );
  }
  let parsed: unknown;
  try {
    parsed = answer.body.length ? JSON.parse(answer.body.toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined) throw new ToolFailure(`The answer at ${answer.pathname} is not JSON: is this ${product}?`, [source]);
  return { body: parsed, source };
}
