import { count, firstOf } from '../series-name';
import { normalizeTime } from '../tool-time';
import type { ToolDefinition } from '../tool.types';
import { readPrometheus } from './prometheus-api';

export type PrometheusTargetsArguments = { job?: string; health?: 'up' | 'down' | 'unknown' };

type RawTarget = {
  labels?: Record<string, string>;
  scrapePool?: string;
  scrapeUrl?: string;
  lastError?: string;
  lastScrape?: string;
  lastScrapeDuration?: number;
  health?: string;
  scrapeInterval?: string;
};

export const prometheusTargetsTool: ToolDefinition<PrometheusTargetsArguments> = {
  name: 'prometheus.targets',
  integrationType: 'prometheus',
  description:
    'Lists the scrape targets Prometheus is actively scraping (Prometheus /api/v1/targets): job, instance, health (up, down, unknown), ' +
    'the last scrape error and when the last scrape happened. Use it when metrics are missing or `up` is 0, to see whether Prometheus can reach a service and why not.',
  argumentsSchema: {
    type: 'object',
    properties: {
      job: { type: 'string', minLength: 1, maxLength: 1024, description: 'Only targets of this job (scrape pool)' },
      health: { type: 'string', enum: ['up', 'down', 'unknown'], description: 'Only targets with this health' },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    const { data, source } = await readPrometheus<{ activeTargets?: RawTarget[] }>(context, 'api/v1/targets', [['state', 'active']]);
    const all = (data.activeTargets ?? []).map((target) => ({
      job: target.labels?.job ?? target.scrapePool ?? '',
      instance: target.labels?.instance ?? '',
      health: target.health ?? 'unknown',
      lastError: target.lastError || null,
      lastScrape: normalizeTime(target.lastScrape),
      lastScrapeDurationSeconds: target.lastScrapeDuration ?? null,
      scrapeInterval: target.scrapeInterval ?? null,
      scrapeUrl: target.scrapeUrl ?? null,
      labels: target.labels ?? {},
    }));
    const targets = all.filter(
      (target) => (!args.job || target.job === args.job || target.labels.job === args.job) && (!args.health || target.health === args.health),
    );
    const healths = ['up', 'down', 'unknown'].map((health) => [health, targets.filter((t) => t.health === health).length] as const).filter(([, n]) => n > 0);
    const down = targets.filter((t) => t.health === 'down').map((t) => `${t.job} ${t.instance}${t.lastError ? ` (${t.lastError.slice(0, 200)})` : ''}`);
    const filtered = args.job || args.health ? ` (of ${all.length})` : '';
    let summary = `${count(targets.length, 'active target')}${filtered}${healths.length ? `: ${healths.map(([h, n]) => `${n} ${h}`).join(', ')}` : ''}.`;
    if (down.length) summary += ` Down: ${firstOf(down, 3)}.`;
    return { outcome: 'succeeded', summary, output: { count: targets.length, targets }, truncated: false, sources: [source] };
  },
};
