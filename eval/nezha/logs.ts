import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { serviceOf } from './dataset';

export const LOGS_FILE = 'trainticket-logs.jsonl.br';

/** One pod's container's log lines of a day, in time order. */
export interface LogStream {
  day: string;
  pod: string;
  /** The pod's Deployment (see serviceOf). */
  service: string;
  container: string;
  /** Each line's time, in nanoseconds since the Unix epoch (the collector's, as recorded). */
  ns: bigint[];
  /** Each line as the container wrote it, without its final newline. */
  text: string[];
}

export interface LogsDataset {
  source: { repository: string; commit: string; licence: string };
  streams: LogStream[];
}

/** A stream as stored: its first time as a string of nanoseconds, then each line's distance from the one before. */
export interface StoredStream {
  day: string;
  pod: string;
  container: string;
  first: string;
  d: number[];
  text: string[];
}

/** Reads the committed conversion of the logs: a header line, then a stream a line (JSON). */
export function loadLogs(path = logsPath()): LogsDataset {
  const [header, ...rows] = brotliDecompressSync(readFileSync(path)).toString('utf8').trim().split('\n');
  const { source } = JSON.parse(header) as Pick<LogsDataset, 'source'>;
  const streams = rows.map((row): LogStream => {
    const s = JSON.parse(row) as StoredStream;
    const ns: bigint[] = [];
    let at = BigInt(s.first);
    s.d.forEach((d, i) => {
      if (i > 0) at += BigInt(d);
      ns.push(at);
    });
    return { day: s.day, pod: s.pod, service: serviceOf(s.pod), container: s.container, ns, text: s.text };
  });
  return { source, streams };
}

function logsPath(): string {
  const beside = join(__dirname, LOGS_FILE);
  // Built into dist/eval/nezha, the data stays in the source tree.
  return existsSync(beside) ? beside : join(__dirname, '..', '..', '..', 'eval', 'nezha', LOGS_FILE);
}
