import { getJson } from '../http-json';
import { ToolFailure } from '../tool-failure';
import type { ToolContext } from '../tool.types';

export interface PrometheusAnswer<T> {
  data: T;
  warnings: string[];
  source: string;
}

/** Reads Prometheus's HTTP API envelope: `{status: "success", data, warnings}` or `{status: "error", errorType, error}`. */
export async function readPrometheus<T>(
  context: ToolContext,
  path: string,
  query: ReadonlyArray<readonly [string, string]> = [],
): Promise<PrometheusAnswer<T>> {
  const { body, source } = await getJson(context, path, query);
  const envelope = body as { status?: unknown; data?: unknown; warnings?: unknown; errorType?: unknown; error?: unknown };
  if (envelope?.status === 'error') {
    throw new ToolFailure(
      `Prometheus answered an error${typeof envelope.errorType === 'string' ? ` (${envelope.errorType})` : ''}: ${String(envelope.error ?? 'no message')}`,
      [source],
    );
  }
  if (envelope?.status !== 'success' || envelope.data === undefined)
    throw new ToolFailure(`The answer at ${source.split('?')[0]} is not Prometheus's API envelope`, [source]);
  const warnings = Array.isArray(envelope.warnings) ? envelope.warnings.map(String) : [];
  return { data: envelope.data as T, warnings, source };
}
