import { capText } from '@svc/platform';
import { getJson } from '../http-json';
import { ToolFailure } from '../tool-failure';
import type { ToolContext } from '../tool.types';

/** The longest Loki error message a run keeps. */
const MAX_MESSAGE = 512;

/**
 * Loki 3.x answers errors in plain text (`text/plain`, the error's own words): a bad query is
 * `400 parse error at line 1, col 9: syntax error: …`, a missing tenant `401 no org id`. Only the
 * messages of Loki's own errors are recognised (by how they begin) and kept, one line, capped;
 * any other body (a proxy's page) is never copied.
 */
const LOKI_ERRORS = [
  /^parse error\b/,
  /^failed to parse\b/,
  /^queries require at least one\b/,
  /^max entries limit per query exceeded\b/,
  /^limit reached while evaluating the query\b/,
  /^maximum number of series \(\d+\) reached\b/,
  /^(the )?query time range exceeds the limit\b/,
  /^invalid (direction|query|parameter|step|start|end)\b/i,
  /^end timestamp must not be before\b/,
  /^query would read too many bytes\b/,
  /^Request timed out\b/,
  /^log queries are not supported as an instant query\b/,
  /^only label matchers are supported\b/,
];

export function explainLokiError(status: number, body: Buffer, complete: boolean): string | undefined {
  if (!complete || body.length === 0) return undefined;
  const text = body.toString('utf8').trim();
  if (status === 401 && text === 'no org id') return "Loki is multi-tenant and the request named no tenant: set the integration's tenant (X-Scope-OrgID)";
  const line = text.split('\n')[0];
  if (LOKI_ERRORS.some((known) => known.test(line))) return capText(line, MAX_MESSAGE);
  if (status === 401) return 'the credentials were refused';
  if (status === 403) return 'the account may not read this tenant';
  return undefined;
}

export interface LokiAnswer<T> {
  data: T;
  source: string;
}

/** Reads Loki's HTTP API envelope: `{status: "success", data}`; an error answer fails the run with Loki's own message. */
export async function readLoki<T>(context: ToolContext, path: string, query: ReadonlyArray<readonly [string, string]> = []): Promise<LokiAnswer<T>> {
  const { body, source } = await getJson(context, path, query, explainLokiError);
  const envelope = body as { status?: unknown; data?: unknown } | undefined;
  if (envelope?.status !== 'success' || envelope.data === undefined)
    throw new ToolFailure(`The answer at ${source.split('?')[0]} is not Loki's API envelope`, [source]);
  return { data: envelope.data as T, source };
}
