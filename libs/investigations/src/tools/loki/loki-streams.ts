import { lineNanos } from './nanos';

/** A stream as Loki answers a log query: its labels and `[nanoseconds, line]` pairs (structured metadata may follow). */
export interface RawStream {
  stream?: Record<string, string>;
  values?: Array<[string, string, ...unknown[]]>;
}

/** One line read, with the stream it came from (its index in the answer, and its labels as one key). */
export interface LogLine {
  at: bigint;
  stream: number;
  labels: string;
  line: string;
}

/** Every line of the streams, in the order the direction reads them (newest first backward), ties by stream. */
export function mergeLines(streams: RawStream[], direction: 'forward' | 'backward'): LogLine[] {
  const lines: LogLine[] = [];
  streams.forEach((s, stream) => {
    const labels = JSON.stringify(Object.entries(s.stream ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
    for (const value of s.values ?? []) {
      const at = lineNanos(value[0]);
      if (at !== null && typeof value[1] === 'string') lines.push({ at, stream, labels, line: value[1] });
    }
  });
  const sign = direction === 'forward' ? 1 : -1;
  return lines.sort((a, b) => (a.at === b.at ? a.stream - b.stream : a.at < b.at ? -sign : sign));
}
