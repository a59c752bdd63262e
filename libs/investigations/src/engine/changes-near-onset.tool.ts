import type { ChangeView } from '@svc/changes';
import { Timestamp } from '@svc/platform';
import type { AlertBrief, SessionTool } from '../reasoning/reasoner';
import { alertServices, CHANGES_TOOL } from '../reasoning/recorded-changes';
import { ArgumentsValidator } from '../tools/arguments-validator';
import type { ToolResult, ToolWindow } from '../tools/tool.types';

/** How the session reads recorded changes and the calls between services (the changes library, wired by the engine). */
export interface ChangeReader {
  /** The changes of the window on the services (and those naming none), oldest first, at most `limit`. */
  near(window: ToolWindow, services: string[], limit: number): Promise<ChangeView[]>;
  /** What the services call, directly or not, as investigations saw it. */
  dependenciesOf(services: string[]): Promise<string[]>;
}

const MINUTE_MICROS = 60_000_000n;
const DEFAULT_BEFORE_MINUTES = 60;
const DEFAULT_AFTER_MINUTES = 15;
/** The most changes one run returns (oldest first). */
export const MAX_CHANGES_NEAR_ONSET = 50;

/** Changes recorded by deploy and configuration tools: read from the service's data, not from an integration. */
export const CHANGES_NEAR_ONSET_TOOL: SessionTool = {
  name: CHANGES_TOOL,
  description:
    'Changes that deploy, configuration, feature-flag, migration and infrastructure tools reported (GitHub, GitLab, Argo CD, Flux, PagerDuty change events and the generic format), ' +
    "oldest first, from beforeMinutes before the onset to afterMinutes after it, on the given services (default: those the incident's alerts name), on what they call (directly or not, " +
    'as call graphs read by investigations showed it: listed in dependencies, and each such change has onDependency true) and those naming no service. ' +
    'Each has when it happened, its kind, service, environment, summary, author, versions before and after, and links. A change shortly before the onset on the alerting service ' +
    'or one it depends on is a candidate cause: test whether the condition began only after it.',
  integrationType: null,
  argumentsSchema: {
    type: 'object',
    properties: {
      onset: { type: 'string', format: 'date-time', description: 'When the condition began (default: when the first alert began)' },
      beforeMinutes: { type: 'integer', minimum: 1, maximum: 1440, description: `How far before the onset to read (default ${DEFAULT_BEFORE_MINUTES})` },
      afterMinutes: { type: 'integer', minimum: 0, maximum: 1440, description: `How far after the onset to read (default ${DEFAULT_AFTER_MINUTES})` },
      services: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 256 },
        maxItems: 20,
        description: "The services whose changes to read, matched without regard to case (default: those the incident's alerts name)",
      },
    },
    additionalProperties: false,
  },
};

const validator = new ArgumentsValidator();
validator.add(CHANGES_NEAR_ONSET_TOOL.name, CHANGES_NEAR_ONSET_TOOL.argumentsSchema);

/** Null when the arguments are valid, else one sentence naming the problem. */
export function changesNearOnsetRefusal(args: Record<string, unknown>): string | null {
  return validator.check(CHANGES_NEAR_ONSET_TOOL.name, args);
}

function earliestStart(alerts: AlertBrief[]): Timestamp | null {
  return alerts.reduce<Timestamp | null>((min, a) => (!min || min.isAfter(a.startsAt) ? a.startsAt : min), null);
}

export async function runChangesNearOnsetTool(
  read: ChangeReader,
  alerts: AlertBrief[],
  args: Record<string, unknown>,
  window: ToolWindow,
): Promise<ToolResult> {
  const onset = (typeof args.onset === 'string' ? Timestamp.parse(args.onset) : null) ?? earliestStart(alerts) ?? window.until;
  const before = typeof args.beforeMinutes === 'number' ? args.beforeMinutes : DEFAULT_BEFORE_MINUTES;
  const after = typeof args.afterMinutes === 'number' ? args.afterMinutes : DEFAULT_AFTER_MINUTES;
  const services = Array.isArray(args.services) ? (args.services as string[]) : alertServices(alerts);
  const range: ToolWindow = {
    from: Timestamp.fromEpochMicros(onset.epochMicros - BigInt(before) * MINUTE_MICROS),
    until: Timestamp.fromEpochMicros(onset.epochMicros + BigInt(after) * MINUTE_MICROS + 1n),
  };
  const dependencies = await read.dependenciesOf(services);
  const changes = await read.near(range, [...services, ...dependencies], MAX_CHANGES_NEAR_ONSET + 1);
  const own = new Set(services.map((s) => s.toLowerCase()));
  const onDependency = (c: ChangeView) => c.service !== null && !own.has(c.service.toLowerCase());
  const shown = changes.slice(0, MAX_CHANGES_NEAR_ONSET);
  const minutesBefore = (c: ChangeView) => Number((onset.epochMicros - Timestamp.parse(c.occurredAt)!.epochMicros) / 1_000_000n) / 60;
  const list = (names: string[]) => `${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  const scope = services.length
    ? `on ${list(services)}${dependencies.length ? `, what they call (${list(dependencies)})` : ''} or naming no service`
    : 'on any service';
  const latestBefore = [...shown].reverse().find((c) => minutesBefore(c) >= 0);
  return {
    outcome: 'succeeded',
    summary:
      shown.length === 0
        ? `No change recorded ${scope} from ${before} min before the onset (${onset.toISOString()}) to ${after} min after`
        : `${changes.length > MAX_CHANGES_NEAR_ONSET ? `More than ${MAX_CHANGES_NEAR_ONSET}` : shown.length} change(s) ${scope} from ${before} min before the onset to ${after} min after` +
          (latestBefore
            ? `; the latest before it: ${latestBefore.kind} "${latestBefore.summary.slice(0, 120)}" ${Math.round(minutesBefore(latestBefore))} min before`
            : ''),
    output: {
      onset: onset.toISOString(),
      services,
      dependencies,
      changes: shown.map((c) => ({
        id: c.id,
        externalId: c.externalId,
        occurredAt: c.occurredAt,
        minutesBeforeOnset: Math.round(minutesBefore(c) * 10) / 10,
        kind: c.kind,
        service: c.service,
        onDependency: onDependency(c),
        environment: c.environment,
        summary: c.summary,
        author: c.author,
        versionBefore: c.versionBefore,
        versionAfter: c.versionAfter,
        source: c.source,
        links: c.links,
      })),
      ...(changes.length > MAX_CHANGES_NEAR_ONSET ? { more: true } : {}),
    },
    truncated: false,
    sources: [`recorded changes ${range.from.toISOString()}..${range.until.toISOString()}`],
    window: range,
  };
}
