import { DatastoreFailure } from '@svc/datastores';
import { ToolFailure } from './tool-failure';
import type { ToolContext } from './tool.types';

/**
 * Runs one named read of the connection's datastore (the datastores library opens a read-only
 * session under the outbound policy, reads, and closes it). A problem (refused, unreachable,
 * signed out, timed out) becomes a ToolFailure naming it; an abort is rethrown as is so the
 * catalog can tell cancellation and timeout apart.
 */
export async function readDatastore<T>(context: ToolContext, read: string, args: Record<string, unknown>, sources: string[]): Promise<T> {
  const { endpoint, relayId, type } = context.connection;
  if (relayId) throw new ToolFailure(`${type} integrations are read directly: this one names a relay, which does not run datastore reads`, sources);
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
