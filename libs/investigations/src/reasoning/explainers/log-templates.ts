import { Timestamp } from '@svc/platform';
import type { DetectionScope, DetectedCause, Explainer } from './explainer';
import type { ExplainerContext } from './context';
import type { RecordedRun, SourceBrief } from '../reasoner';
import { withinWindow } from '../series-reading';

/** How the logs of a workload are read back from the window before its onset (minutes). */
const BEFORE_MINUTES = 30;
const AFTER_MINUTES = 5;

/** A line that reports trouble, in the words loggers of every language use. */
export const TROUBLE =
  /\b(error|err|fatal|panic|exception|fail(ed|ure)?|refused|timed? ?out|unavailable|denied|unreachable|cannot|can't|could not|no such|not found|invalid|reset|broken|killed|oom)\b/i;

/** The LogQL line filter that keeps the lines reporting trouble (TROUBLE, case-insensitive). */
export const TROUBLE_FILTER = `|~ ${JSON.stringify(`(?i)${TROUBLE.source}`)}`;

/** A template as loki.log_patterns lists it. */
export interface LogTemplate {
  template: string;
  status: 'new' | 'more' | 'fewer' | 'gone' | 'steady';
  firstSeen: string;
  before: number;
  after: number;
  beforePerMinute: number | null;
  afterPerMinute: number | null;
  example: string | null;
  /** With `by`: the value of that stream label whose lines made the template. */
  labels?: Record<string, string>;
}

/**
 * The stream selector of the alerting workload's logs, in the labels the log store has: its
 * namespace, and its pods by name, else whichever label names the service (`service_name`, `app`,
 * `app_kubernetes_io_name`, `service`, `job`, `container`). Null when the store labels none of
 * them.
 */
export function workloadSelector(labels: readonly string[], scope: DetectionScope): string | null {
  const has = (l: string) => labels.includes(l);
  const quote = (v: string) => JSON.stringify(v);
  const workload = scope.workload;
  const namespace = scope.namespace && has('namespace') ? `namespace=${quote(scope.namespace)}` : '';
  const pod = scope.labels.pod && has('pod') ? `pod=${quote(scope.labels.pod)}` : '';
  const named = workload ? (WORKLOAD_LABELS.find(has) ?? (has('pod') ? 'pod' : undefined)) : undefined;
  const byName = named === 'pod' ? `pod=~${quote(`${escapeRegex(workload!)}-.*`)}` : named ? `${named}=${quote(workload!)}` : '';
  const matchers = [namespace, pod || byName].filter(Boolean);
  // A namespace alone is not the workload's logs.
  return pod || byName ? `{${matchers.join(', ')}}` : null;
}

export const escapeRegex = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The labels that name a workload's log streams, in the order log collectors set them. */
export const WORKLOAD_LABELS = ['service_name', 'app', 'app_kubernetes_io_name', 'service', 'container', 'job'];

/** Whether `text` names `workload` as a whole name (ts-travel-service is not ts-travel2-service, inventory is not inventory-db). */
export function namesWorkload(text: string, workload: string): boolean {
  return new RegExp(`(?<![A-Za-z0-9_-])${escapeRegex(workload)}(?![A-Za-z0-9_-])`, 'i').test(text);
}

/**
 * The other workload a template (or its example line) names, when one does: the workloads are
 * the values of the label that names them (one run, within the namespace), read only when the
 * budget allows.
 */
async function dependencyNamed(
  ctx: ExplainerContext,
  loki: SourceBrief,
  labels: readonly string[],
  t: LogTemplate,
): Promise<{ workload: string; run: RecordedRun } | null> {
  const label = WORKLOAD_LABELS.find((l) => labels.includes(l));
  if (!label || !ctx.canRead(1)) return null;
  const namespace = ctx.scope.namespace && labels.includes('namespace') ? `{namespace=${JSON.stringify(ctx.scope.namespace)}}` : undefined;
  const run = await ctx.session.runTool({
    tool: 'loki.label_values',
    integrationId: loki.integrationId,
    arguments: { label, ...(namespace ? { query: namespace } : {}) },
    purpose: `Which workloads write logs, to tell whether the new error of ${ctx.who} names one of them`,
  });
  const values = run.outcome === 'succeeded' ? (run.output as { values?: unknown } | null)?.values : undefined;
  const text = `${t.template} ${t.example ?? ''}`;
  const workload = (Array.isArray(values) ? values.map(String) : []).find((w) => w !== ctx.scope.workload && namesWorkload(text, w));
  return workload ? { workload, run } : null;
}

/**
 * A new kind of error in the alerting workload's logs (Loki): the lines read around the onset are
 * grouped into templates (`loki.log_patterns`), and a template that reports trouble and first
 * appeared at the onset (never in the half hour before, or no earlier than two minutes before it)
 * is a cause found, dated by its first line: "a new error in the logs of checkout from 10:02:14:
 * `error connecting to <_>: connection refused`". Its mechanism is not shown (what made the
 * workload write it: a code change, bad input, a dependency), so it is a proximate event. An error
 * written as often before the onset as after is stated and ruled out with the same run.
 */
export const logTemplatesExplainer: Explainer = {
  name: 'new log templates',
  // It reads a log store, not metrics: never left out for want of series, and run without Prometheus too.
  reads: [],
  appliesTo: (scope) => !!(scope.workload || scope.labels.pod),
  async explain(ctx) {
    const loki = ctx.session.sources.find((s) => s.type === 'loki');
    if (!loki || !ctx.canRead(2)) return null;
    const who = ctx.who;
    const labels = await ctx.session.runTool({
      tool: 'loki.labels',
      integrationId: loki.integrationId,
      arguments: {},
      purpose: `Which labels the log streams carry, to select the logs of ${who}`,
    });
    const listed = labels.outcome === 'succeeded' ? (labels.output as { labels?: unknown } | null)?.labels : undefined;
    const names = Array.isArray(listed) ? listed.map(String) : [];
    const selector = workloadSelector(names, ctx.scope);
    if (!selector) {
      if (labels.outcome === 'succeeded')
        ctx.limitations.push({
          type: 'missing_telemetry',
          statement: `The logs of ${who} could not be selected: the log streams carry none of its labels (${names.length ? names.join(', ') : 'no label'})`,
          runRefs: [labels.ordinal],
          messageSequences: [],
        });
      return null;
    }
    const run = await readTemplates(ctx, loki, selector, who);
    if (run.outcome !== 'succeeded') return null;
    const templates = ((run.output as { templates?: LogTemplate[] } | null)?.templates ?? []).filter((t) => TROUBLE.test(t.template));
    const onset = ctx.scope.onset;
    const fresh = templates.find((t) => t.status === 'new' && ctx.near(Timestamp.parse(t.firstSeen)));
    const old = templates.find((t) => t.status === 'steady' || t.status === 'fewer');
    const found: DetectedCause[] = [];
    if (fresh) {
      const at = Timestamp.parse(fresh.firstSeen)!;
      const rate = fresh.afterPerMinute !== null ? ` (${fresh.afterPerMinute} a minute)` : '';
      const written = `${who} wrote \`${fresh.template}\` ${fresh.after} times from ${at.toISOString()}${rate}, and not in the ${BEFORE_MINUTES} min before the onset${fresh.example ? `; for example: ${fresh.example}` : ''}`;
      // An error that names another workload reports that dependency failing the alerting one.
      const about = await dependencyNamed(ctx, loki, names, fresh);
      found.push({
        newInLogs: true,
        ...(about
          ? {
              id: 'h-log-template',
              statement: `${about.workload} failing the calls of ${who} from ${at.toISOString()}, \`${fresh.template}\`, caused the alert's condition`,
              at,
              run,
              mechanism: `${written}. The error names ${about.workload}, which ${who} depends on`,
              mechanismRuns: [run.ordinal],
              chainRuns: [labels.ordinal, about.run.ordinal],
              unexplained: [`why ${about.workload} failed the calls of ${who} from then on`],
              peer: about.workload,
              action: {
                title: `Find why ${about.workload} fails the calls of ${who}`,
                rationale: `${who} began reporting \`${fresh.template}\` with the alert's condition, ${minutesApart(at, onset)}`,
                verification: `${who} stops writing it and the alert resolves`,
              },
            }
          : {
              id: 'h-log-template',
              statement: `A new error in the logs of ${who} from ${at.toISOString()}, \`${fresh.template}\`, caused the alert's condition`,
              at,
              run,
              mechanism: written,
              mechanismRuns: [run.ordinal],
              chainRuns: [labels.ordinal],
              unexplained: [`what made ${who} write it from then on (a change of its code or configuration, the input it was given, a dependency it names)`],
              action: {
                title: `Find what ${who} reports with \`${fresh.template}\``,
                rationale: `The error began with the alert's condition, ${minutesApart(at, onset)}`,
                verification: `${who} stops writing it and the alert resolves`,
              },
            }),
      });
    }
    if (old) {
      const at = Timestamp.parse(old.firstSeen) ?? onset;
      found.push({
        id: 'h-log-template-old',
        statement: `The error \`${old.template}\` in the logs of ${who} caused the alert's condition`,
        at,
        run,
        mechanism: '',
        mechanismRuns: [],
        chainRuns: [],
        unexplained: [],
        action: { title: `Look into \`${old.template}\``, rationale: 'It is in the logs', verification: 'It stops' },
        refuted: {
          because: `${who} wrote it before the onset as often as after (${old.beforePerMinute ?? '?'} a minute before, ${old.afterPerMinute ?? '?'} after): it was there all along`,
          runs: [run.ordinal],
        },
      });
    }
    return found.length ? found : null;
  },
};

/** The templates of the workload's lines from half an hour before the onset to five minutes after, within the window. */
function readTemplates(ctx: ExplainerContext, loki: SourceBrief, selector: string, who: string): Promise<RecordedRun> {
  const onset = ctx.scope.onset;
  const window = ctx.session.window;
  const clamp = (t: Timestamp) => withinWindow(t, window);
  return ctx.session.runTool({
    tool: 'loki.log_patterns',
    integrationId: loki.integrationId,
    arguments: {
      selector,
      onset: onset.toISOString(),
      start: clamp(onset.plusSeconds(-BEFORE_MINUTES * 60)).toISOString(),
      end: clamp(onset.plusSeconds(AFTER_MINUTES * 60)).toISOString(),
    },
    purpose: `Did a new kind of error begin in the logs of ${who} at the onset?`,
  });
}

const minutesApart = (at: Timestamp, onset: Timestamp): string => {
  const minutes = Number((onset.epochMicros - at.epochMicros) / 60_000_000n);
  return minutes > 0 ? `${minutes} min before it` : minutes < 0 ? `${-minutes} min after it` : 'within a minute of it';
};
