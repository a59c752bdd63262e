import type { Timestamp } from '@svc/platform';
import { anyOf, minutesBetween, MINUTE, pointsOf, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer } from './explainer';
import { mentions, quote, workloadOfPod } from './labels';
import { outOfMemory } from './out-of-memory';

/** A ConfigMap or Secret edited at most this long before the first crash, with no rollout between, was taken up by a reload. */
const RELOAD_WINDOW = 15n * MINUTE;

/**
 * Containers of the alerting workload in CrashLoopBackOff near the onset; why they stop (their
 * last termination reason): out of memory (see out-of-memory), or an error after a configuration
 * change (the Deployment's generation, and a ConfigMap or Secret edited just before it).
 */
export const crashLoopExplainer: Explainer = {
  name: 'crash loop',
  reads: ['kube_pod_container_status_waiting_reason'],
  appliesTo: (scope) => !!scope.pods,
  async explain(ctx) {
    const pods = ctx.scope.pods;
    const run = await ctx.read(
      `max by (namespace, pod, container) (kube_pod_container_status_waiting_reason{${pods}, reason="CrashLoopBackOff"}) == 1`,
      'Did containers of the alerting workload crash loop near the onset?',
      -30,
      2,
    );
    const looping = seriesOf(run)
      .map((s) => ({ s, at: ctx.began(s, run) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at) && x.at.isAfter(shift(ctx.session.window.from, MINUTE)))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1));
    if (!looping.length || !ctx.canRead(1)) return null;
    const first = looping[0];
    const namespace = first.s.metric.namespace;
    const podNames = [...new Set(looping.map((x) => x.s.metric.pod))];
    const deployment = workloadOfPod(first.s.metric.pod);
    const ns = namespace ? `namespace=${quote(namespace)}, ` : '';
    const reasons = await ctx.read(
      `max by (pod, container, reason) (kube_pod_container_status_last_terminated_reason{${ns}pod=~${anyOf(podNames)}}) == 1`,
      `Why do the containers of ${deployment} stop?`,
      -30,
      2,
    );
    const reason = seriesOf(reasons)[0]?.metric.reason;
    const loops = `${podNames.length} pod(s) of ${deployment} (${podNames.join(', ')}) crash looped from ${first.at.toISOString()}`;
    const base: DetectedCause = {
      id: 'h-crash-loop',
      statement: `Containers of ${deployment} crash looping from ${first.at.toISOString()} caused the alert's condition`,
      at: first.at,
      run,
      mechanism: `${loops}${reason ? `, last terminated with ${reason}` : ''}`,
      mechanismRuns: [run.ordinal],
      chainRuns: [reasons.ordinal],
      unexplained: [`why the containers of ${deployment} exit${reason ? ` (${reason})` : ''}: no configuration change or memory limit was seen`],
      action: {
        title: `Read the logs of the crashing containers of ${deployment}`,
        rationale: 'They crash loop',
        verification: `kube_pod_container_status_waiting_reason{reason="CrashLoopBackOff"} of ${deployment} is 0 and the alert resolves`,
      },
    };
    if (!ctx.canRead(1)) return base;
    if (reason === 'OOMKilled') return outOfMemory(ctx, base, namespace, podNames, deployment, first.at);
    // A change of the Deployment's spec (its generation) and the ConfigMaps and Secrets of the namespace.
    const changes = await ctx.read(
      [
        `kube_deployment_metadata_generation{${ns}deployment=${quote(deployment)}}`,
        `kube_statefulset_metadata_generation{${ns}statefulset=${quote(deployment)}}`,
        `kube_configmap_metadata_resource_version{${ns.replace(/, $/, '')}}`,
        `kube_secret_metadata_resource_version{${ns.replace(/, $/, '')}}`,
      ]
        .filter((q) => !q.endsWith('{}'))
        .join(' or '),
      `Did the configuration of ${deployment} change before it crashed?`,
      -60,
      2,
      30,
    );
    base.chainRuns.push(changes.ordinal);
    const changedAt = (s: SeriesOut): Timestamp | null => {
      const points = pointsOf(s).filter((p) => !p.t.isAfter(first.at));
      const i = points.findIndex((p, k) => k > 0 && p.v !== points[k - 1].v);
      return i > 0 ? points[i].t : null;
    };
    const edits = seriesOf(changes)
      .map((s) => ({ s, at: changedAt(s) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => !!x.at)
      .sort((a, b) => (b.at.isAfter(a.at) ? 1 : -1));
    const rollout = edits.find((x) => x.s.metric.__name__?.endsWith('_metadata_generation'));
    const edited = edits.find(
      (x) =>
        (x.s.metric.configmap || x.s.metric.secret) &&
        (!rollout || !x.at.isAfter(rollout.at)) &&
        (!rollout || rollout.at.epochMicros - x.at.epochMicros <= 30n * MINUTE),
    );
    if (!rollout) {
      // No rollout: a ConfigMap or Secret edited shortly before the first crash, which the running
      // containers read again (a reload), is the likeliest change; which of them the workload
      // reads, no series says, so it stays a supported explanation.
      const reloaded = edits.find((x) => (x.s.metric.configmap || x.s.metric.secret) && first.at.epochMicros - x.at.epochMicros <= RELOAD_WINDOW);
      if (!reloaded) return base;
      const object = reloaded.s.metric.configmap ? `ConfigMap ${reloaded.s.metric.configmap}` : `Secret ${reloaded.s.metric.secret}`;
      const name = reloaded.s.metric.configmap ?? reloaded.s.metric.secret;
      return {
        ...base,
        id: 'h-configuration',
        statement: `The edit of ${object} at ${reloaded.at.toISOString()}, just before the containers of ${deployment} began to crash loop, caused the alert's condition`,
        at: reloaded.at,
        run: changes,
        mechanism: `${object} was edited at ${reloaded.at.toISOString()}, ${minutesBetween(reloaded.at, first.at)} min before ${loops}${reason ? `, exiting with ${reason}` : ''}; ${deployment} did not roll out: its containers read the configuration again`,
        mechanismRuns: [changes.ordinal, run.ordinal, ...(reason ? [reasons.ordinal] : [])],
        unexplained: [
          mentions(name, deployment)
            ? `how ${deployment}'s running containers took up the edit without a rollout (a reload of ${object})`
            : `whether ${deployment} reads ${object} (no series ties them) and took it up without a rollout`,
        ],
        action: {
          title: `Revert the edit of ${object}, then restart ${deployment} if it does not reload it`,
          rationale: `Its containers began to crash loop ${minutesBetween(reloaded.at, first.at)} min after the edit, with no rollout between`,
          verification: `kube_pod_container_status_waiting_reason{reason="CrashLoopBackOff"} of ${deployment} is 0 and the alert resolves`,
        },
      };
    }
    const object = edited ? (edited.s.metric.configmap ? `ConfigMap ${edited.s.metric.configmap}` : `Secret ${edited.s.metric.secret}`) : null;
    const at = edited?.at ?? rollout.at;
    // Pods that crash loop started with the rollout: the change reached them.
    return {
      ...base,
      id: 'h-configuration',
      statement: object
        ? `The edit of ${object} at ${edited!.at.toISOString()}, rolled out to ${deployment} at ${rollout.at.toISOString()}, made its new containers crash loop and caused the alert's condition`
        : `A change of ${deployment}'s spec rolled out at ${rollout.at.toISOString()} made its new containers crash loop and caused the alert's condition`,
      at,
      run: changes,
      mechanism: `${object ? `${object} was edited at ${edited!.at.toISOString()}; ` : ''}${deployment} rolled out a new generation at ${rollout.at.toISOString()} (${minutesBetween(rollout.at, first.at)} min before); ${loops}${reason ? `, exiting with ${reason}` : ''}`,
      mechanismRuns: [changes.ordinal, run.ordinal, ...(reason ? [reasons.ordinal] : [])],
      unexplained: object ? [] : [`what the rollout of ${deployment} changed (no ConfigMap or Secret edit was seen before it)`],
      action: {
        title: object ? `Revert the edit of ${object} and roll ${deployment} back` : `Roll ${deployment} back to its previous generation`,
        rationale: 'Its containers crash loop since the change rolled out',
        verification: `kube_pod_container_status_waiting_reason{reason="CrashLoopBackOff"} of ${deployment} is 0 and the alert resolves`,
      },
    };
  },
};
