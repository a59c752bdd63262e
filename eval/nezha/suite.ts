import { writeFileSync } from 'node:fs';
import { ApiClient, DerivedAlert } from '../harness';
import { loadDataset } from './dataset';
import { loadLogs } from './logs';
import { dayAlerts, ENTRY_SERVICE, FaultResult, HAND_PAGE_AFTER_SECONDS, notInvestigated, pageOf, replayFault, report } from './replay';

export const NEZHA_SUITE = 'nezha-trainticket';

/**
 * The `nezha-trainticket` suite of `npm run eval`: each selected fault replayed and investigated,
 * one at a time (from the rule's page, or from a page raised by hand for the entry service when the
 * rule never paged), then the report. Without `api` (with `list`) it lists the faults and the page
 * each one gets, which needs only Prometheus.
 */
export async function runNezhaSuite(
  api: { client: ApiClient; baseUrl: string } | undefined,
  options: { only?: string[]; json?: string; list?: boolean; dumpTo?: string; withoutLogs?: boolean },
): Promise<FaultResult[]> {
  const dataset = loadDataset();
  const faults = options.only ? dataset.faults.filter((f) => options.only!.includes(f.id)) : dataset.faults;
  if (options.only && faults.length !== options.only.length) throw new Error(`unknown fault in ${options.only.join(', ')}; --list shows them`);
  // The rule's alerts over each day's data, evaluated once per day: an alert at a moment depends only on the data before it.
  const alerts = new Map<string, DerivedAlert[]>();
  for (const day of dataset.days.filter((d) => faults.some((f) => f.day === d.day))) alerts.set(day.day, await dayAlerts(dataset, day));
  if (options.list || !api) {
    for (const f of faults) {
      const page = pageOf(f, alerts.get(f.day)!);
      console.log(
        `${f.id} (${f.type}): ${page ? `paged: ${page.labels.service} after ${Math.round((page.firedAt - f.at) / 60)} min` : `never paged: raised by hand for ${ENTRY_SERVICE} after ${HAND_PAGE_AFTER_SECONDS / 60} min`}`,
      );
    }
    return [];
  }
  // The pods' logs, served by a Loki beside the Prometheus (`--without-logs`: metrics only).
  const logs = options.withoutLogs ? undefined : loadLogs();
  const results: FaultResult[] = [];
  for (const fault of faults) {
    const started = Date.now();
    try {
      results.push(
        await replayFault(api.client, dataset, fault, alerts.get(fault.day)!, {
          baseUrl: api.baseUrl,
          log: (line) => console.log(line),
          dumpTo: options.dumpTo,
          logs,
        }),
      );
    } catch (error) {
      results.push(notInvestigated(fault, !!pageOf(fault, alerts.get(fault.day)!), (error as Error).message, (Date.now() - started) / 1000));
    }
    const r = results[results.length - 1];
    console.log(
      `${fault.id} (${r.paged ? 'paged' : 'never paged'}): ${r.status}/${r.conclusionStatus ?? '-'} top-1 ${r.top1} top-3 ${r.top3} candidates ${r.candidates.join(', ') || '-'}: ${r.error ?? r.cause}`,
    );
  }
  console.log(`\n${report(results, !logs)}`);
  if (options.json) writeFileSync(options.json, JSON.stringify(results, null, 2));
  return results;
}
