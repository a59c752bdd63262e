import { earliest, firstSampleAt, MINUTE, minutesBetween, SeriesOut, seriesOf, shift } from '../series-reading';
import { Timestamp } from '@svc/platform';
import type { DetectedCause, Explainer, WhyAnswer } from './explainer';
import type { ExplainerContext } from './context';

/** kube-state-metrics' series of each container of a pod, with the image it runs. */
const CONTAINER_INFO = 'kube_pod_container_info';

/** Labels that tell replicas apart, not builds: a new pod of the same build is not a new version. */
const REPLICA_LABELS = new Set(['__name__', 'job', 'instance', 'pod', 'node', 'uid', 'container_id', 'pod_ip', 'host_ip', 'ip', 'hostname', 'endpoint']);
/**
 * Of a container's series, the image names the build: its digest and the container's id are
 * empty until the container runs, so the same image shows as two series at every start.
 */
const CONTAINER_BUILD_LABELS = new Set(['namespace', 'container', 'image']);

/** The labels of a build series that name the build itself (version, revision, ...), sorted. */
const buildLabels = (metric: Record<string, string>): Array<[string, string]> =>
  Object.entries(metric)
    .filter(([k]) => (metric.__name__ === CONTAINER_INFO ? CONTAINER_BUILD_LABELS.has(k) : !REPLICA_LABELS.has(k)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const buildKey = (metric: Record<string, string>): string => JSON.stringify([metric.__name__, metric.job, buildLabels(metric)]);
/** A version as build labels name it: the one value that changed (`2.4.1`, an image), else `label=value` pairs. */
const versionText = (labels: Array<[string, string]>): string => (labels.length === 1 ? labels[0][1] : labels.map(([k, v]) => `${k}=${v}`).join(', '));
const matchers = (labels: Array<[string, string]>): string => labels.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');

/** `name{job="...", version="...", ...}`: every replica running the build of this series. */
function buildSelector(metric: Record<string, string>): string {
  return `${metric.__name__ ?? ''}{${matchers([...(metric.job ? ([['job', metric.job]] as Array<[string, string]>) : []), ...buildLabels(metric)])}}`;
}

/** The statement of a read of builds that found no build series. */
const noBuilds = (pods: string): string =>
  `No *_build_info metric${pods ? ' and no kube_pod_container_info of the alerting pods' : ''}: deployments could not be seen in the metrics`;

/** A series that started inside the read, with when. */
type Started = { s: SeriesOut; at: Timestamp };

/**
 * The new build found among the build series of the quarter hour before the onset: one that
 * replaces an older build of the same program (same metric and job, other version labels) and
 * started near the onset. A build series with no such predecessor is where the data begins (a new
 * service, monitoring that just started) or a new instance of the same version, not a change.
 */
function newBuild(ctx: ExplainerContext, started: Started[], windowStart: bigint): { appeared: Started; predecessor?: Started } | null {
  // An image replaces the one the same container ran before (a sidecar's image is another program).
  const replaces = (next: SeriesOut, older: SeriesOut): boolean =>
    next.metric.__name__ === older.metric.__name__ &&
    next.metric.job === older.metric.job &&
    next.metric.container === older.metric.container &&
    buildKey(next.metric) !== buildKey(older.metric);
  // Each replica of a build is a series of its own: a build started with its first replica.
  const buildStart = (x: { s: SeriesOut }): Timestamp =>
    earliest(started.filter((o) => buildKey(o.s.metric) === buildKey(x.s.metric)).map((o) => o.at)) ?? started[0].at;
  const newBuilds = started
    .filter((x) => x.at.epochMicros > windowStart && ctx.changedNear(x.at) && started.some((other) => replaces(x.s, other.s) && x.at.isAfter(other.at)))
    .map((x) => ({ ...x, at: buildStart(x) }))
    .filter((x) => x.at.epochMicros > windowStart)
    .sort((a, b) => (b.at.isAfter(a.at) ? 1 : -1));
  // The program's own build series names the version best; an image is read when it has none.
  const own = newBuilds.filter((x) => x.s.metric.__name__ !== CONTAINER_INFO);
  const appeared = (own.length ? own : newBuilds)[0];
  if (!appeared) return null;
  // The build it replaced: the latest other build that started before it.
  const predecessor = started.filter((x) => replaces(appeared.s, x.s) && appeared.at.isAfter(x.at)).sort((a, b) => (b.at.isAfter(a.at) ? 1 : -1))[0];
  return { appeared, predecessor };
}

/**
 * A new version of the alerting service near the onset: a program's own build series
 * (`*_build_info`, scoped to the alert's job) or the image Kubernetes runs in the alerting
 * workload's pods (kube-state-metrics), so that a service exporting no build series still shows
 * one. The change people made that ends a causal chain; asked why, it is tested on the replicas
 * that run the new build.
 */
export const newVersionExplainer: Explainer = {
  name: 'new versions',
  reads: ['.+_build_info', CONTAINER_INFO],
  appliesTo: () => true,
  unseen(ctx) {
    // Without build series in the window, the read of which metrics exist shows there are none.
    const run = ctx.presence.run;
    if (run?.outcome !== 'succeeded') return;
    ctx.limitations.push({ type: 'missing_telemetry', statement: noBuilds(ctx.scope.pods), runRefs: [run.ordinal], messageSequences: [] });
    ctx.versions = { newOne: false, run: run.ordinal, seen: false };
  },
  async explain(ctx) {
    const onset = ctx.scope.onset;
    const pods = ctx.scope.pods;
    const job = ctx.jobMatcher ? `, ${ctx.jobMatcher}` : '';
    // The quarter hour before the onset, finely: a change that explains it happened there.
    const builds = await ctx.readFine(
      `{__name__=~".+_build_info"${job}}${pods ? ` or kube_pod_container_info{${pods}}` : ''}`,
      'Did a new version start before the onset?',
      shift(onset, -15n * MINUTE),
      shift(onset, MINUTE),
    );
    if (builds.outcome !== 'succeeded') return null;
    const out = builds.output as { start?: string; stepSeconds?: number } | null;
    const step = BigInt(Math.round((out?.stepSeconds ?? 0) * 1_000_000));
    // A series there from the start of the range began before it: not a change.
    const windowStart = (Timestamp.parse(String(builds.arguments.start ?? ''))?.epochMicros ?? 0n) + BigInt(Number(builds.arguments.step ?? 0)) * 1_000_000n;
    const started = seriesOf(builds)
      .map((s) => ({ s, at: firstSampleAt(s) }))
      .filter((x): x is Started => !!x.at);
    if (seriesOf(builds).length === 0)
      ctx.limitations.push({ type: 'missing_telemetry', statement: noBuilds(pods), runRefs: [builds.ordinal], messageSequences: [] });
    const found = started.length ? newBuild(ctx, started, windowStart) : null;
    ctx.versions = { newOne: !!found, run: builds.ordinal, seen: seriesOf(builds).length > 0 };
    if (!found) return null;
    const { s } = found.appeared;
    // A range query sees a new series at the first step after it appeared: it started within one step before.
    const at = Timestamp.fromEpochMicros(found.appeared.at.epochMicros - step);
    // The rollout completed when the new build's last replica started (a series' start is exact;
    // its end is blurred by Prometheus' lookback, which keeps a stopped series answering for minutes).
    const rolledOutAt = started
      .filter((x) => buildKey(x.s.metric) === buildKey(s.metric))
      .map((x) => x.at)
      .reduce<Timestamp | null>((max, t) => (!max || t.isAfter(max) ? t : max), null);
    const changed = buildLabels(s.metric).filter(([k, v]) => found.predecessor?.s.metric[k] !== v);
    // The labels that name the new version: those that changed, else all of the build's.
    const named = changed.length ? changed : buildLabels(s.metric);
    const version = matchers(named) || (s.metric.__name__ ?? '');
    const program = s.metric.__name__ === CONTAINER_INFO ? s.metric.container : s.metric.job;
    const predecessor = found.predecessor;
    // The build it replaced, by the same labels: what a rollback returns to.
    const previous = predecessor
      ? matchers(named.flatMap(([k]) => (predecessor.s.metric[k] !== undefined ? [[k, predecessor.s.metric[k]] as [string, string]] : [])))
      : '';
    const cause: DetectedCause = {
      id: 'h-version',
      statement: `The new build (${version}) that started at ${at.toISOString()} caused the alert's condition`,
      at,
      run: builds,
      mechanism: `A new build (${version}) of ${program ?? 'the service'} started ${minutesBetween(at, onset)} min before the condition began; the condition did not hold before it`,
      mechanismRuns: [],
      chainRuns: [],
      unexplained: [],
      action: {
        title: `Roll back ${program ?? 'the service'} from ${version}${previous ? ` to ${previous}` : ''}`,
        rationale: 'The condition began with this version and not before',
        verification: `The alert's expression returns no series after the rollback${ctx.scope.expression ? `: ${ctx.scope.expression}` : ''}`,
      },
      rollout: {
        selector: buildSelector(s.metric),
        rolledOutAt,
        observed:
          program && named.length
            ? {
                run: builds,
                at,
                seenIn: s.metric.__name__ === CONTAINER_INFO ? 'kubernetes' : 'prometheus',
                program,
                namespace: s.metric.namespace ?? null,
                versionBefore: predecessor ? versionText(named.map(([k]) => [k, predecessor.s.metric[k] ?? ''])) : null,
                versionAfter: versionText(named),
                labels: s.metric,
              }
            : undefined,
      },
    };
    return cause;
  },
  /**
   * Precedence alone is passed by any earlier event: the mechanism is tested too. The condition
   * holds on the instances that run the new build (a query that returns nothing when the errors
   * come from elsewhere); a condition over the whole service, which no replica label tells apart,
   * is tied to the rollout by its timing (the build read and the precedence test show it).
   */
  async askWhy(ctx, cause, condition): Promise<WhyAnswer> {
    const none: WhyAnswer = { runs: [], mechanismRuns: [], limitations: [] };
    const expression = condition.expression;
    if (!cause.rollout || !expression) return none;
    const replica = ['pod', 'instance'].find((label) => condition.labels[label] !== undefined);
    if (!replica) return { ...none, mechanismRuns: [cause.run.ordinal, ...condition.hypothesisRuns.slice(-1)] };
    const selector = cause.rollout.selector;
    const run = await ctx.readFine(
      `(${expression}) and on(${replica}) ${selector}`,
      `Test: does the condition hold on the replicas running ${selector}?`,
      cause.at,
      shift(condition.onset, 5n * MINUTE),
      cause.id,
    );
    if (seriesOf(run).some((s) => (s.values?.length ?? 0) > 0)) return { ...none, runs: [run.ordinal], mechanismRuns: [run.ordinal] };
    return {
      ...none,
      runs: [run.ordinal],
      limitations: [
        {
          type: 'missing_telemetry',
          statement:
            run.outcome === 'succeeded'
              ? `The condition could not be tied to the replicas running the new build (${selector}): its series do not match them by ${replica}`
              : `The test of the new build's mechanism could not run: ${run.error ?? 'failed'}`,
          runRefs: [run.ordinal],
          messageSequences: [],
        },
      ],
    };
  },
};
