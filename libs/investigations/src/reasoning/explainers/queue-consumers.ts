import type { Timestamp } from '@svc/platform';
import { MINUTE, pointsOf, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, DetectionScope, Explainer } from './explainer';
import { mentionedBy, quote } from './labels';

/**
 * A queue named by the alert (its `queue` or `topic` label) whose consumers went to zero near the
 * onset (RabbitMQ's exporters), and the workload scaled to zero just before (kube-state-metrics'
 * spec replicas).
 */
export const queueConsumersExplainer: Explainer = {
  name: 'queue consumers',
  reads: ['rabbitmq_queue_consumers', 'rabbitmq_detailed_queue_consumers'],
  appliesTo: (scope) => !!queueOf(scope),
  async explain(ctx) {
    const queue = queueOf(ctx.scope)!;
    const run = await ctx.read(
      `max by (queue, vhost) ({__name__=~"rabbitmq_queue_consumers|rabbitmq_detailed_queue_consumers", queue=${quote(queue)}})`,
      `Did the consumers of ${queue} go away?`,
      -60,
      2,
      30,
    );
    const series = seriesOf(run)[0];
    const points = series ? pointsOf(series) : [];
    const last = points.at(-1);
    if (!last || last.v > 0) return null;
    const goneIndex = points.findIndex((p, i) => p.v === 0 && i > 0 && points[i - 1].v > 0 && points.slice(i).every((q) => q.v === 0));
    const goneAt = goneIndex > 0 ? points[goneIndex].t : null;
    if (!ctx.near(goneAt)) return null;
    const gone = `the consumers of queue ${queue} went from ${points[goneIndex - 1].v} to 0 at ${goneAt.toISOString()} and its messages waited from then on`;
    const cause: DetectedCause = {
      id: 'h-consumers',
      statement: `The consumers of queue ${queue} went away at ${goneAt.toISOString()} and caused the alert's condition`,
      at: goneAt,
      run,
      mechanism: gone,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`why the consumers of ${queue} went away (no workload was seen scaled to zero)`],
      action: {
        title: `Bring the consumers of ${queue} back`,
        rationale: 'It has had no consumer since just before the condition began',
        verification: `rabbitmq_queue_consumers{queue="${queue}"} is above 0 and the alert resolves`,
      },
    };
    if (!ctx.canRead(1)) return cause;
    const ns = ctx.scope.namespace ? `{namespace=${quote(ctx.scope.namespace)}}` : '';
    const replicas = await ctx.read(
      `kube_deployment_spec_replicas${ns} or kube_statefulset_replicas${ns}`,
      `Was a workload scaled to zero before the consumers of ${queue} went away?`,
      -60,
      2,
      30,
    );
    cause.chainRuns.push(replicas.ordinal);
    const scaled = seriesOf(replicas)
      .map((s) => {
        const p = pointsOf(s);
        const i = p.findIndex((q, k) => k > 0 && q.v === 0 && p[k - 1].v > 0 && p.slice(k).every((r) => r.v === 0));
        return i > 0 ? { s, at: p[i].t, from: p[i - 1].v } : null;
      })
      .filter(
        (x): x is { s: SeriesOut; at: Timestamp; from: number } =>
          !!x && !x.at.isAfter(shift(goneAt, MINUTE)) && goneAt.epochMicros - x.at.epochMicros <= 10n * MINUTE,
      )
      // The workload named after the queue first, then the latest drop before the consumers left.
      .sort((a, b) => Number(mentionedBy(b.s.metric, queue)) - Number(mentionedBy(a.s.metric, queue)) || (b.at.isAfter(a.at) ? 1 : -1))[0];
    if (!scaled) return cause;
    const workload = scaled.s.metric.deployment ?? scaled.s.metric.statefulset ?? 'a workload';
    return {
      ...cause,
      id: 'h-scaled-to-zero',
      statement: `${workload} was scaled to zero at ${scaled.at.toISOString()}, leaving queue ${queue} without consumers, and caused the alert's condition`,
      at: scaled.at,
      run: replicas,
      mechanism: `${workload}'s desired replicas went from ${scaled.from} to 0 at ${scaled.at.toISOString()}; ${gone}`,
      mechanismRuns: [replicas.ordinal, run.ordinal],
      unexplained: [],
      action: {
        title: `Scale ${workload} back to ${scaled.from} replicas`,
        rationale: `It consumed ${queue} and was scaled to zero just before the messages began to wait`,
        verification: `kube_deployment_spec_replicas{deployment="${workload}"} is ${scaled.from}, the consumers of ${queue} are back and the alert resolves`,
      },
    };
  },
};

/** The queue an alert names. */
function queueOf(scope: DetectionScope): string | undefined {
  return scope.labels.queue ?? scope.labels.topic;
}
