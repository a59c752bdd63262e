import type { Timestamp } from '@svc/platform';
import { earliest, MINUTE, pointsOf, seriesOf, shift } from '../series-reading';
import { slowPeer } from './chain/slow-peer';
import type { DetectedCause, Explainer } from './explainer';

/** Causes found on a workload that can fail its liveness probe (a probe that waits on a dependency, a starved process). */
const PROBE_FAILURE_CAUSES = new Set([
  'h-slow-dependency',
  'h-dependency',
  'h-certificate',
  'h-connections',
  'h-pool',
  'h-throttling',
  'h-cpu-limit',
  'h-noisy-neighbour',
  'h-surge',
]);

/**
 * Containers of the alerting workload restarted by the kubelet after failing liveness probes
 * (kubelet's `prober_probe_total{probe_type="Liveness"}` from /metrics/probes, and
 * kube-state-metrics' restart count, in one query: the restarts must follow the failures). Then
 * why the probe failed: a cause already found on the same workload from before the failures (a
 * slow or failing dependency, CPU throttling, a noisy neighbour, an exhausted pool) continues the
 * chain and takes the restarts into it, taking over that cause; without one, when the alert names
 * no service, the workload's own calls are read for a slow dependency. Otherwise the probe's own
 * cause is unknown. It runs last, to see the causes the other explainers found.
 */
export const livenessExplainer: Explainer = {
  name: 'liveness restarts',
  reads: ['prober_probe_total', 'kube_pod_container_status_restarts_total'],
  appliesTo: (scope) => !!scope.pods,
  async explain(ctx, found) {
    const pods = ctx.scope.pods;
    const who = ctx.who;
    const run = await ctx.read(
      `sum by (namespace, pod, container, result) (increase(prober_probe_total{${pods}, probe_type="Liveness", result=~"failed|successful"}[1m])) or sum by (namespace, pod, container) (increase(kube_pod_container_status_restarts_total{${pods}}[1m]))`,
      `Did liveness probes of ${who} fail, and did its containers restart after?`,
      -30,
      2,
    );
    const series = seriesOf(run);
    const restartsOf = (pod: string, container: string | undefined) =>
      series.filter((s) => s.metric.result === undefined && s.metric.pod === pod && (!container || !s.metric.container || s.metric.container === container));
    const restarted: Array<{ pod: string; failedAt: Timestamp; restartAt: Timestamp }> = [];
    for (const failed of series.filter((s) => s.metric.result === 'failed')) {
      const points = pointsOf(failed);
      const first = points.findIndex((p) => p.v > 0);
      // Failing from the range's start: not what changed near the onset.
      if (first < 0 || (first === 0 && !ctx.began(failed, run))) continue;
      const failedAt = points[first].t;
      if (!ctx.near(failedAt)) continue;
      const restartAt = restartsOf(failed.metric.pod, failed.metric.container)
        .flatMap(pointsOf)
        .filter((p) => p.v > 0 && !p.t.isBefore(failedAt) && p.t.epochMicros - failedAt.epochMicros <= 10n * MINUTE)
        .map((p) => p.t)
        .sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
      if (restartAt) restarted.push({ pod: failed.metric.pod, failedAt, restartAt });
    }
    const failedPods = new Set(series.filter((s) => s.metric.result === 'failed' && pointsOf(s).some((p) => p.v > 0)).map((s) => s.metric.pod));
    for (const s of series.filter((x) => x.metric.result === 'successful' && !failedPods.has(x.metric.pod))) ctx.livenessPassed.set(s.metric.pod, run.ordinal);
    if (!restarted.length) return null;
    const podNames = [...new Set(restarted.map((r) => r.pod))];
    const at = earliest(restarted.map((r) => r.failedAt))!;
    const restartAt = earliest(restarted.map((r) => r.restartAt))!;
    const failing = `the liveness probes of ${podNames.length} pod(s) of ${who} (${podNames.join(', ')}) began to fail at ${at.toISOString()} and the kubelet restarted their containers after (first at ${restartAt.toISOString()})`;
    const cause: DetectedCause = {
      id: 'h-liveness',
      statement: `Failing liveness probes of ${who} from ${at.toISOString()}, which got its containers restarted, caused the alert's condition`,
      at,
      run,
      mechanism: failing.charAt(0).toUpperCase() + failing.slice(1),
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`why the liveness probe of ${who} failed (no slow or failing dependency, CPU throttling or starved node was seen before it)`],
      action: {
        title: `Find why the liveness probe of ${who} fails (its endpoint, what it waits on), and relax the probe meanwhile`,
        rationale: 'Its containers are restarted after failing their liveness probe',
        verification: `prober_probe_total{probe_type="Liveness", result="failed"} of ${who} stops growing and the alert resolves`,
      },
      restartedPods: podNames,
    };
    // Why the probe failed: a cause found before the failures began, and not long before.
    const explains = (d: DetectedCause): boolean =>
      !d.refuted && PROBE_FAILURE_CAUSES.has(d.id) && !d.at.isAfter(shift(at, MINUTE)) && at.epochMicros - d.at.epochMicros <= 15n * MINUTE;
    const earlier = found.find(explains);
    let root = earlier;
    if (!root && !ctx.scope.job && ctx.scope.workload && ctx.canRead(2)) {
      // An alert on pods names no service: the workload's own calls (its job is usually named after it).
      const slow = await slowPeer(ctx, ctx.scope.workload, 1);
      if (slow && explains(slow)) root = slow;
      else cause.chainRuns.push(...(slow ? [slow.run.ordinal] : ctx.session.runs.slice(-1).map((r) => r.ordinal)));
    }
    if (!root) return cause;
    const continued: DetectedCause = {
      ...root,
      id: 'h-liveness',
      statement: `${root.statement.replace(" and caused the alert's condition", '').replace(" caused the alert's condition", '')}, which failed the liveness probes of ${who} from ${at.toISOString()} and got its containers restarted, caused the alert's condition`,
      mechanism: `${root.mechanism}; ${failing}`,
      // The probe query tested the last step; the root's own mechanism must have been tested too.
      mechanismRuns: root.mechanismRuns.length ? [...root.mechanismRuns, run.ordinal] : [],
      chainRuns: [...root.chainRuns, run.ordinal],
      restartedPods: podNames,
    };
    // A cause found by an explainer before becomes a step of this chain.
    return earlier ? { cause: continued, replaces: earlier } : continued;
  },
};
