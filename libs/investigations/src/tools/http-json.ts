import { ToolFailure } from './tool-failure';
import type { DataSourceType, ToolContext } from './tool.types';

/** Past this, an answer is refused rather than held in memory: the output cap would cut most of it anyway. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export const PRODUCT_NAMES: Record<DataSourceType, string> = { prometheus: 'Prometheus', alertmanager: 'Alertmanager' };

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

function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

function errorDetail(body: unknown, text: string): string {
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object') {
    const { errorType, error, message } = body as { errorType?: unknown; error?: unknown; message?: unknown };
    if (typeof error === 'string') return typeof errorType === 'string' && errorType ? `(${errorType}) ${error}` : error;
    if (typeof message === 'string') return message;
  }
  return text.trim().slice(0, 1024) || 'empty body';
}

async function readText(res: Response, source: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ToolFailure(
        `The answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; narrow the query (fewer series, a shorter range or a larger step)`,
        [source],
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GET a JSON answer from the connection's API: its headers, `accept: application/json`, no
 * redirects (a redirect could carry the credentials elsewhere), the context's signal.
 * Anything but a 2xx JSON answer becomes a ToolFailure naming the status and the server's message;
 * an abort is rethrown as is so the catalog can tell cancellation and timeout apart.
 */
export async function getJson(context: ToolContext, path: string, query: ReadonlyArray<readonly [string, string]> = []): Promise<JsonAnswer> {
  const { baseUrl, headers, type } = context.connection;
  const product = PRODUCT_NAMES[type];
  const url = toolUrl(baseUrl, path, query);
  const source = `${url.pathname}${url.search}`;
  const requestHeaders = new Headers(headers);
  requestHeaders.set('accept', 'application/json');
  let text: string;
  let res: Response;
  try {
    res = await fetch(url, { headers: requestHeaders, signal: context.signal, redirect: 'error' });
    text = await readText(res, source);
  } catch (error) {
    if (context.signal.aborted || error instanceof ToolFailure) throw error;
    throw new ToolFailure(`Could not reach ${product} at ${url.origin}: ${networkCause(error)}`, [source]);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) throw new ToolFailure(`${product} answered HTTP ${res.status} at ${url.pathname}: ${errorDetail(body, text)}`, [source]);
  if (body === undefined) throw new ToolFailure(`The answer at ${url.pathname} is not JSON: is this ${product}?`, [source]);
  return { body, source };
}
