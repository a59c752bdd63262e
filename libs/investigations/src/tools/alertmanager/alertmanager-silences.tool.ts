import { getJson } from '../http-json';
import { count, firstOf } from '../series-name';
import { normalizeTime } from '../tool-time';
import type { ToolDefinition } from '../tool.types';

export type AlertmanagerSilencesArguments = { activeOnly?: boolean; filter?: string[] };

type RawMatcher = { name?: string; value?: string; isRegex?: boolean; isEqual?: boolean };
type RawSilence = {
  id?: string;
  status?: { state?: string };
  matchers?: RawMatcher[];
  startsAt?: string;
  endsAt?: string;
  updatedAt?: string;
  createdBy?: string;
  comment?: string;
};

/** `name="value"`, `name!="value"`, `name=~"regex"`, `name!~"regex"`: how Alertmanager writes a matcher. */
function matcherText(matcher: RawMatcher): string {
  const negated = matcher.isEqual === false;
  const operator = matcher.isRegex ? (negated ? '!~' : '=~') : negated ? '!=' : '=';
  return `${matcher.name ?? ''}${operator}${JSON.stringify(matcher.value ?? '')}`;
}

export const alertmanagerSilencesTool: ToolDefinition<AlertmanagerSilencesArguments> = {
  name: 'alertmanager.silences',
  integrationType: 'alertmanager',
  description:
    'Lists Alertmanager silences (Alertmanager API v2 /api/v2/silences): matchers, state (active, pending, expired), start and end, author and comment. ' +
    'Use it to find out whether alerts are being muted (which could hide symptoms) and whether someone already acknowledged a known problem or planned maintenance.',
  argumentsSchema: {
    type: 'object',
    properties: {
      activeOnly: { type: 'boolean', description: 'Only silences in effect now (default false: also pending and expired ones)' },
      filter: {
        type: 'array',
        minItems: 1,
        maxItems: 16,
        items: { type: 'string', minLength: 1, maxLength: 4096 },
        description: 'Matchers that silences must carry, e.g. ["alertname=\\"DiskFull\\""]',
      },
    },
    additionalProperties: false,
  },
  async run(args, context) {
    const { body, source } = await getJson(
      context,
      'api/v2/silences',
      (args.filter ?? []).map((matcher) => ['filter', matcher] as const),
    );
    const all = (Array.isArray(body) ? (body as RawSilence[]) : []).map((silence) => ({
      id: silence.id ?? null,
      state: silence.status?.state ?? 'unknown',
      matchers: (silence.matchers ?? []).map(matcherText),
      startsAt: normalizeTime(silence.startsAt),
      endsAt: normalizeTime(silence.endsAt),
      updatedAt: normalizeTime(silence.updatedAt),
      createdBy: silence.createdBy ?? null,
      comment: silence.comment ?? null,
    }));
    const silences = args.activeOnly ? all.filter((s) => s.state === 'active') : all;
    const states = ['active', 'pending', 'expired'].map((state) => [state, silences.filter((s) => s.state === state).length] as const).filter(([, n]) => n > 0);
    const active = silences.filter((s) => s.state === 'active').map((s) => `${s.matchers.join(',')} until ${s.endsAt} by ${s.createdBy}`);
    const filtered = args.activeOnly ? ` (of ${all.length})` : '';
    let summary = `${count(silences.length, 'silence')}${filtered}${states.length ? `: ${states.map(([s, n]) => `${n} ${s}`).join(', ')}` : ''}.`;
    if (active.length) summary += ` Active: ${firstOf(active, 3)}.`;
    return { outcome: 'succeeded', summary, output: { count: silences.length, silences }, truncated: false, sources: [source] };
  },
};
