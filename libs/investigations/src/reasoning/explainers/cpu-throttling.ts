import { jumpOf, MINUTE, pointsOf, round, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer } from './explainer';

/** A container throttled in this share of its CFS periods (and four times its usual) is throttled. */
const THROTTLED_SHARE = 0.25;

/**
 * CPU throttling of the alerting workload's containers (cAdvisor's CFS periods): the share of
 * throttled periods jumped near the onset. Why: a lower CPU limit (kube-state-metrics'
 * resource limits of the pods), or more demand.
 */
export const cpuThrottlingExplainer: Explainer = {
  name: 'CPU throttling',
  reads: ['container_cpu_cfs_throttled_periods_total'],
  appliesTo: (scope) => !!scope.pods,
  async explain(ctx) {
    const pods = ctx.scope.pods;
    const who = ctx.who;
    const run = await ctx.read(
      `max(sum by (namespace, pod) (increase(container_cpu_cfs_throttled_periods_total{${pods}, container!=""}[2m])) / sum by (namespace, pod) (increase(container_cpu_cfs_periods_total{${pods}, container!=""}[2m])))`,
      `Were the containers of ${who} throttled on CPU near the onset?`,
      -25,
      2,
    );
    const series = seriesOf(run)[0];
    const jump = series ? jumpOf(series, 4, THROTTLED_SHARE) : null;
    if (!jump || !ctx.near(jump.at)) return null;
    const throttled = `The containers of ${who} were throttled in ${round(jump.reached * 100)}% of their CPU periods from ${jump.at.toISOString()} (usually ${round(jump.usual * 100)}%)`;
    const cause: DetectedCause = {
      id: 'h-throttling',
      statement: `CPU throttling of ${who} from ${jump.at.toISOString()} caused the alert's condition`,
      at: jump.at,
      run,
      mechanism: throttled,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`why ${who} was throttled (its CPU limit did not change; more demand or a new version remain)`],
      action: {
        title: `Raise the CPU limit of ${who} or reduce its demand`,
        rationale: 'Its containers were throttled just before the condition began',
        verification: `The share of throttled CFS periods of ${who} falls back to ${round(jump.usual * 100)}% and the alert resolves`,
      },
    };
    if (!ctx.canRead(1)) return cause;
    const limits = await ctx.read(
      `min(kube_pod_container_resource_limits{${pods}, resource="cpu"}) or min(container_spec_cpu_quota{${pods}, container!=""}) / 100000`,
      `Was the CPU limit of ${who} lowered?`,
      -30,
      2,
      30,
    );
    cause.chainRuns.push(limits.ordinal);
    const points = seriesOf(limits).flatMap(pointsOf);
    const before = points.find((p) => p.t.isBefore(shift(jump.at, -5n * MINUTE)))?.v;
    const lowered = before !== undefined ? points.find((p) => p.v < before * 0.8 && !p.t.isAfter(jump.at)) : undefined;
    if (before === undefined || !lowered) return cause;
    return {
      ...cause,
      id: 'h-cpu-limit',
      statement: `The CPU limit of ${who}, lowered from ${round(before)} to ${round(lowered.v)} cores at ${lowered.t.toISOString()}, throttled its containers and caused the alert's condition`,
      at: lowered.t,
      run: limits,
      mechanism: `The CPU limit of ${who} went from ${round(before)} to ${round(lowered.v)} cores at ${lowered.t.toISOString()}; ${throttled}`,
      mechanismRuns: [limits.ordinal, run.ordinal],
      unexplained: [],
      action: {
        title: `Restore the CPU limit of ${who} (${round(before)} cores)`,
        rationale: `It was lowered to ${round(lowered.v)} cores and the containers were throttled from then on`,
        verification: `container_cpu_cfs_throttled_periods_total of ${who} grows at its usual rate and the alert resolves`,
      },
    };
  },
};
