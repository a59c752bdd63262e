import { jumpOf, MINUTE, round, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer } from './explainer';
import { methodOf, quote, REQUEST_RATES, requestRatesByRoute, routeOf } from './labels';

/** A route's request rate at this many times its usual level (and at least SURGE_MIN_RPS) is a surge. */
export const SURGE_RATIO = 2;
export const SURGE_MIN_RPS = 1;

/**
 * A surge of traffic on a route of the alerting service (the common HTTP server counters by
 * route, a gRPC server's calls by method): its request rate at twice its usual level or more near the onset. The mechanism is
 * the service's CPU rising with it (process CPU, or cAdvisor's for its pods): more requests
 * than it could serve.
 */
export const trafficSurgeExplainer: Explainer = {
  name: 'traffic surge',
  reads: REQUEST_RATES,
  appliesTo: (scope) => !!scope.job,
  async explain(ctx) {
    const job = ctx.scope.job!;
    const run = await ctx.read(requestRatesByRoute(job), `Did traffic on a route of ${job} surge near the onset?`);
    const surge = seriesOf(run)
      .map((s) => ({ s, jump: jumpOf(s, SURGE_RATIO, SURGE_MIN_RPS) }))
      .filter((x): x is { s: SeriesOut; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.jump && ctx.near(x.jump.at))
      .sort((a, b) => b.jump.reached - b.jump.usual - (a.jump.reached - a.jump.usual))[0];
    if (!surge) return null;
    const m = surge.s.metric;
    const route = routeOf(m);
    const what = `${route ? `${methodOf(m) ? `${methodOf(m)} ` : ''}${route}` : 'all routes'} of ${job}`;
    const rose = `requests on ${what} rose from ${round(surge.jump.usual)} to ${round(surge.jump.reached)} per second from ${surge.jump.at.toISOString()}`;
    const cause: DetectedCause = {
      id: 'h-surge',
      statement: `A surge of traffic on ${what} from ${surge.jump.at.toISOString()} (${round(surge.jump.usual)} to ${round(surge.jump.reached)} requests/s) caused the alert's condition`,
      at: surge.jump.at,
      run,
      mechanism: rose,
      mechanismRuns: [],
      chainRuns: [],
      unexplained: [],
      action: {
        title: `Absorb or shed the surge on ${what}`,
        rationale: 'The surge began just before the condition',
        verification: `The request rate on ${what} returns to about ${round(surge.jump.usual)} per second and the alert resolves`,
      },
    };
    if (!ctx.canRead(1)) return cause;
    const cpu = await ctx.read(
      `sum(rate(process_cpu_seconds_total{job=${quote(job)}}[1m]))${ctx.scope.pods ? ` or sum(rate(container_cpu_usage_seconds_total{${ctx.scope.pods}, container!=""}[1m]))` : ''}`,
      `Did the CPU of ${job} rise with the surge?`,
    );
    cause.chainRuns.push(cpu.ordinal);
    const busier = seriesOf(cpu)
      .map((s) => jumpOf(s, 1.5, 0))
      .find((j) => !!j && !j.at.isBefore(shift(surge.jump.at, -MINUTE)) && ctx.near(j.at));
    if (busier) {
      cause.mechanism = `${rose}; the CPU of ${job} rose from ${round(busier.usual)} to ${round(busier.reached)} cores from ${busier.at.toISOString()}`;
      cause.mechanismRuns = [cpu.ordinal, run.ordinal];
    } else {
      ctx.limitations.push({
        type: 'missing_telemetry',
        statement: `The CPU of ${job} did not visibly rise with the surge on ${what}, so how the surge produced the condition is not shown`,
        runRefs: [cpu.ordinal],
        messageSequences: [],
      });
    }
    return cause;
  },
};
