import { Timestamp } from '@svc/platform';
import { jumpOf, MINUTE, round, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer, WhyAnswer } from './explainer';
import { methodOf, REQUEST_COUNTERS, requestRatesByRoute, ROUTE_GROUPING, routeOf } from './labels';
import { SURGE_MIN_RPS, SURGE_RATIO } from './traffic-surge';

const SATURATION_RATIO = 3;
const SATURATION_MIN_CORES = 0.5;

/**
 * When a CPU rate series jumped to saturation: the first sample at least SATURATION_RATIO times
 * the median of the range's first quarter (its usual level) and at least SATURATION_MIN_CORES.
 */
export function saturationStart(series: SeriesOut): Timestamp | null {
  return jumpOf(series, SATURATION_RATIO, SATURATION_MIN_CORES)?.at ?? null;
}

/**
 * A process of the alerting service whose CPU use jumped to saturation near the onset (its own
 * `process_cpu_seconds_total`, scoped to the alert's job). A proximate event: asked why, it reads
 * the service's request rate by route for a surge that came no later.
 */
export const processCpuExplainer: Explainer = {
  name: 'process CPU saturation',
  reads: ['process_cpu_seconds_total'],
  appliesTo: () => true,
  async explain(ctx) {
    const onset = ctx.scope.onset;
    const job = ctx.jobMatcher;
    const cpu = await ctx.readFine(
      `rate(process_cpu_seconds_total{${job}}[1m])`,
      'Did a process saturate its CPU around the onset?',
      shift(onset, -15n * MINUTE),
      shift(onset, MINUTE),
    );
    const saturated = seriesOf(cpu)
      .map((s) => ({ s, at: saturationStart(s) }))
      .find((x): x is { s: SeriesOut; at: Timestamp } => !!x.at && ctx.changedNear(x.at));
    if (!saturated) return null;
    const who = saturated.s.metric.instance ?? saturated.s.metric.job ?? 'a process';
    const cause: DetectedCause = {
      id: 'h-cpu',
      statement: `CPU saturation of ${who} from ${saturated.at.toISOString()} caused the alert's condition`,
      at: saturated.at,
      run: cpu,
      mechanism: `${who} went from its usual CPU use to more than ${SATURATION_RATIO} times as much (and at least ${SATURATION_MIN_CORES} cores) at ${saturated.at.toISOString()}`,
      mechanismRuns: [],
      chainRuns: [],
      unexplained: [`what drove the CPU use of ${who} up (more traffic, a new version, a change inside the process)`],
      action: {
        title: `Relieve the CPU of ${who}`,
        rationale: 'Its CPU use jumped at the onset',
        verification: `rate(process_cpu_seconds_total[1m]) for ${who} returns to its earlier level and the alert resolves`,
      },
      subject: saturated.s.metric,
    };
    return cause;
  },
  /**
   * CPU saturation is a proximate event: was it more traffic? The service's request rate by route
   * (the common HTTP server counters), from before the saturation: a route whose rate jumped to
   * SURGE_RATIO times its usual level no later than the saturation is the cause, and the query that
   * showed it tested the mechanism (it would have shown steady traffic otherwise).
   */
  async askWhy(ctx, cause): Promise<WhyAnswer> {
    const job = cause.subject?.job;
    const who = cause.subject?.instance ?? job ?? 'the process';
    const traffic = await ctx.readFine(
      job ? requestRatesByRoute(job) : `sum by (${ROUTE_GROUPING}) (rate({__name__=~"${REQUEST_COUNTERS}"}[1m]))`,
      `Why did the CPU of ${who} jump: more traffic?`,
      shift(cause.at, -15n * MINUTE),
      shift(cause.at, 2n * MINUTE),
      cause.id,
    );
    const answer: WhyAnswer = { runs: [traffic.ordinal], mechanismRuns: [], limitations: [] };
    const routes = seriesOf(traffic);
    if (traffic.outcome === 'succeeded' && routes.length === 0) {
      answer.limitations.push({
        type: 'missing_telemetry',
        statement: `No HTTP request counter (${REQUEST_COUNTERS.split('|').join(', ')}) for ${job ?? 'the service'}: whether more traffic drove its CPU up could not be seen`,
        runRefs: [traffic.ordinal],
        messageSequences: [],
      });
      return answer;
    }
    const surge = routes
      .map((s) => ({ s, jump: jumpOf(s, SURGE_RATIO, SURGE_MIN_RPS) }))
      .filter((x): x is { s: SeriesOut; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.jump && !x.jump.at.isAfter(shift(cause.at, MINUTE)))
      .sort((a, b) => b.jump.reached - b.jump.usual - (a.jump.reached - a.jump.usual))[0];
    if (!surge) {
      if (traffic.outcome !== 'succeeded') return answer;
      // The build read before the onset answered "a new version?"; a neighbour on the node starves a process but does not raise its own CPU use.
      const versions = ctx.versions;
      const noVersion = versions?.seen && !versions.newOne;
      if (noVersion) answer.runs.push(versions.run);
      answer.restated = {
        unexplained: [
          `what drove the CPU use of ${who} up (its traffic did not jump${noVersion ? ' and no new version started near the onset' : ''}; ${noVersion ? 'a change inside the process, such as its configuration or the work it was given, remains' : 'a new version or a change inside the process remain'})`,
        ],
      };
      return answer;
    }
    const m = surge.s.metric;
    const route = routeOf(m);
    const what = `${route ? `${methodOf(m) ? `${methodOf(m)} ` : ''}${route}` : 'all routes'} of ${m.job ?? job ?? 'the service'}`;
    const at = surge.jump.at.toISOString();
    answer.mechanismRuns = [traffic.ordinal];
    answer.restated = {
      statement: `A surge of traffic on ${what} from ${at} (${round(surge.jump.usual)} to ${round(surge.jump.reached)} requests/s), which saturated the CPU of ${who}, caused the alert's condition`,
      at: surge.jump.at,
      mechanism: `Requests on ${what} rose from ${round(surge.jump.usual)} to ${round(surge.jump.reached)} per second from ${at}; the CPU of ${who} saturated at ${cause.mechanism.split(' at ').at(-1)}`,
      action: {
        title: `Absorb or shed the surge on ${what}`,
        rationale: 'The surge drove the CPU to saturation just before the condition began',
        verification: `The request rate on ${what} and the CPU of ${who} return to their usual levels, and the alert resolves`,
      },
      unexplained: [],
    };
    return answer;
  },
};
