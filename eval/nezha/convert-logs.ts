import { parse } from 'csv-parse/sync';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { LOGS_FILE, StoredStream } from './logs';
import { Source } from './source';

/**
 * Converts the logs of the TrainTicket days of the Nezha dataset (github.com/IntelligentDDS/Nezha,
 * rca_data/2023-01-29/log and rca_data/2023-01-30/log: a file for each of the minutes around each
 * injection) into eval/nezha/trainticket-logs.jsonl.br: each pod's container's lines in time order,
 * as the container wrote them (the `log` field of the collector's record). The trace and span ids
 * the lines carry are numbered in order of first appearance (same length, hexadecimal): lines of one
 * trace stay joined, and the random ids no longer take most of the file.
 *
 *   npm run build && node dist/eval/nezha/convert-logs.js <Nezha checkout or bare git directory> [out]
 */
const DAYS = ['2023-01-29', '2023-01-30'];
const TRACE_IDS = /((?:TraceID|SpanID):\s*)([0-9a-f]{16,32})\b/g;

interface Row {
  TimeUnixNano: string;
  PodName: string;
  Container: string;
  Log: string;
}

/** The line a container wrote: the collector's record's `log`, else the record as it is. */
function lineOf(record: string): string {
  try {
    const parsed = JSON.parse(record) as { log?: unknown };
    if (typeof parsed.log === 'string') return parsed.log.replace(/\n$/, '');
  } catch {
    // Not the collector's JSON: kept as recorded.
  }
  return record;
}

function main(): void {
  const [path, out = join(__dirname, '..', '..', '..', 'eval', 'nezha', LOGS_FILE)] = process.argv.slice(2);
  if (!path) throw new Error('usage: node dist/eval/nezha/convert-logs.js <Nezha checkout or bare git directory> [out]');
  const source = new Source(path);
  const ids = new Map<string, string>();
  const renumber = (text: string): string =>
    text.replace(TRACE_IDS, (_all, label: string, id: string) => {
      let next = ids.get(id);
      if (!next) ids.set(id, (next = (ids.size + 1).toString(16).padStart(id.length, '0')));
      return `${label}${next}`;
    });
  const streams: StoredStream[] = [];
  for (const day of DAYS) {
    const dir = `rca_data/${day}/log`;
    const byStream = new Map<string, { pod: string; container: string; lines: Array<{ ns: bigint; text: string }> }>();
    let skipped = 0;
    const files = source.list(dir).filter((f) => /^\d\d_\d\d_log\.csv$/.test(f));
    for (const file of files) {
      // A few records were cut short as written (a line of one ends inside another's quotes): kept
      // as read when their time and pod are, else counted and left out.
      const rows = parse(source.read(`${dir}/${file}`), { columns: true, skip_empty_lines: true, relax_quotes: true, relax_column_count: true }) as Row[];
      for (const row of rows) {
        if (!/^\d{19}$/.test(row.TimeUnixNano ?? '') || !row.PodName || typeof row.Log !== 'string') {
          skipped++;
          continue;
        }
        const key = `${row.PodName}\u0000${row.Container}`;
        const stream = byStream.get(key) ?? { pod: row.PodName, container: row.Container, lines: [] };
        byStream.set(key, stream);
        stream.lines.push({ ns: BigInt(row.TimeUnixNano), text: lineOf(row.Log) });
      }
    }
    let lines = 0;
    for (const { pod, container, lines: all } of [...byStream.values()].sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0))) {
      all.sort((a, b) => (a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0));
      lines += all.length;
      streams.push({
        day,
        pod,
        container,
        first: String(all[0].ns),
        d: all.map((l, i) => (i === 0 ? 0 : Number(l.ns - all[i - 1].ns))),
        text: all.map((l) => renumber(l.text)),
      });
    }
    console.log(`${day}: ${files.length} files, ${byStream.size} streams, ${lines} lines, ${skipped} records left out (no time or pod)`);
  }
  const licence =
    source
      .read('LICENSE')
      .split('\n')
      .find((l) => l.startsWith('Copyright')) ?? '';
  const header = { source: { repository: 'https://github.com/IntelligentDDS/Nezha', commit: source.commit, licence: `MIT License, ${licence}` } };
  const text = [header, ...streams].map((x) => JSON.stringify(x)).join('\n');
  const compressed = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } });
  writeFileSync(out, compressed);
  console.log(`${streams.length} streams from ${source.commit}; ${out}: ${compressed.length} bytes`);
}

main();
