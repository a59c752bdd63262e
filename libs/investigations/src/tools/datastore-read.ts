import { DatastoreFailure } from '@svc/datastores';
import { MAX_ANSWER_BYTES, readThroughRelay } from './http-json';
import { firstOf } from './series-name';
import { ToolFailure } from './tool-failure';
import type { ToolContext, ToolDefinition } from './tool.types';

/**
 * Runs one named read of the connection's datastore (the datastores library opens a read-only
 * session under the outbound policy, reads, and closes it). A problem (refused, unreachable,
 * signed out, timed out) becomes a ToolFailure naming it; an abort is rethrown as is so the
 * catalog can tell cancellation and timeout apart.
 */
export async function readDatastore<T>(context: ToolContext, read: string, args: Record<string, unknown>, sources: string[]): Promise<T> {
  const { endpoint, relayId } = context.connection;
  if (relayId) return readDatastoreThroughRelay<T>(context, read, args, sources);
  if (!endpoint || !context.datastores)
    throw new Error('readDatastore: the tool context has no datastore endpoint or client (tools run through the ToolCatalog)');
  try {
    return (await context.datastores.read(endpoint, read, args, context.signal)) as T;
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (error instanceof DatastoreFailure) throw new ToolFailure(error.message, sources);
    throw error;
  }
}

/**
 * The same read run by the relay the integration is bound to, next to the datastore (its
 * configuration holds the address and sign-in): the job's path is the read's name and its one
 * query parameter the arguments as JSON; the answer is the read's output.
 */
async function readDatastoreThroughRelay<T>(context: ToolContext, read: string, args: Record<string, unknown>, sources: string[]): Promise<T> {
  const answer = await readThroughRelay(context, read, [['arguments', JSON.stringify(args)]], sources);
  if (!answer.complete) throw new ToolFailure(`The relay's answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, sources);
  try {
    return JSON.parse(answer.body.toString('utf8')) as T;
  } catch {
    throw new ToolFailure("The relay's answer is not the read's JSON", sources);
  }
}

/** Seconds as people say them: 42 s, 3.5 min, 2.1 h. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return 'unknown time';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 6) / 10} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

/** Bytes as people say them: 512 B, 3.2 MiB. */
export function byteSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return 'unknown size';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** A row of a datastore read's output (the reads shape them; the tools only summarise). */
export type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rows of statistics views and server replies, shaped by the reads

/** The arguments of a tool that takes none. */
export const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

/** The arguments of the statement tools (PostgreSQL's pg_stat_statements, MySQL's statement digests). */
export const STATEMENT_ARGUMENTS = {
  type: 'object',
  properties: {
    orderBy: { type: 'string', enum: ['total_time', 'mean_time', 'calls'], description: 'Order of the list (default total_time)' },
    limit: { type: 'integer', minimum: 1, maximum: 50, description: 'How many statements (default 10)' },
  },
  additionalProperties: false,
};

/** The arguments of the session tools: which open transactions to list. */
export const TRANSACTION_ARGUMENTS = {
  type: 'object',
  properties: {
    minTransactionSeconds: {
      type: 'number',
      minimum: 0,
      maximum: 31_536_000,
      description: 'List only transactions open at least this long (default 0: every open transaction, longest first)',
    },
  },
  additionalProperties: false,
};

/** "checkout 3, batch 2": the first groups of a count by something, for summaries. */
export const top = (groups: Array<Row & { count: number }>, key: string, limit = 3): string =>
  firstOf(
    groups.map((g) => `${g[key]} ${g.count}`),
    limit,
  );

/**
 * A tool over one named read of a datastore: the read's output is the run's output, `summarize`
 * says what it shows, and `sources` (or what `sourcesOf` makes of the output) what was read.
 */
export function datastoreTool<A extends Record<string, unknown>>(spec: {
  name: string;
  integrationType: ToolDefinition['integrationType'];
  description: string;
  argumentsSchema: Record<string, unknown>;
  read: string;
  sources: string[];
  summarize(output: Row, args: A): string;
  sourcesOf?(output: Row): string[];
}): ToolDefinition<A> {
  const { read, sources, summarize, sourcesOf, ...descriptor } = spec;
  return {
    ...descriptor,
    async run(args, context) {
      const output = await readDatastore<Row>(context, read, args, sources);
      return { outcome: 'succeeded', summary: summarize(output, args), output, truncated: false, sources: sourcesOf?.(output) ?? sources };
    },
  };
}
