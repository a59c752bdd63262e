import { Timestamp } from '@svc/platform';
import { MINUTE, minutesBetween, shift } from '../series-reading';
import type { Explainer } from './explainer';

/** A rollout that began this long before the onset (or up to two minutes after it) may have started it. */
const ROLLOUT_WITHIN_MINUTES = 30;

/** A revision as kubernetes.rollout_history lists it. */
interface Revision {
  revision: number;
  createdAt?: string;
  images: string[];
  changeCause?: string;
}

/**
 * A rollout of the alerting workload near the onset, in the Kubernetes API (with a `kubernetes`
 * integration): the Deployment's newest ReplicaSet (`kubernetes.rollout_history`), created from
 * half an hour before the onset to two minutes after it, replacing an older revision. The change
 * people made, like a new build in the metrics; when the metrics showed the new version already
 * (a build series, kube-state-metrics' images), it is stated from them and this reads nothing.
 */
export const kubernetesRolloutExplainer: Explainer = {
  name: 'rollouts in the Kubernetes API',
  // It reads the Kubernetes API, not metrics: never left out for want of series.
  reads: [],
  appliesTo: (scope) => !!scope.namespace && !!scope.workload,
  async explain(ctx, found) {
    const k8s = ctx.session.sources.find((s) => s.type === 'kubernetes');
    if (!k8s || !ctx.canRead(1) || found.some((c) => c.id === 'h-version')) return null;
    const namespace = ctx.scope.namespace!;
    const workload = ctx.scope.workload!;
    const run = await ctx.session.runTool({
      tool: 'kubernetes.rollout_history',
      integrationId: k8s.integrationId,
      arguments: { namespace, kind: 'Deployment', name: workload },
      purpose: `Whether ${workload} rolled out a new revision just before the onset`,
    });
    if (run.outcome !== 'succeeded') return null;
    const revisions = [...((run.output as { revisions?: Revision[] } | null)?.revisions ?? [])].sort((a, b) => b.revision - a.revision);
    const [newest, previous] = revisions;
    const at = newest?.createdAt ? Timestamp.parse(newest.createdAt) : null;
    const onset = ctx.scope.onset;
    if (!previous || !at || at.isBefore(shift(onset, -BigInt(ROLLOUT_WITHIN_MINUTES) * MINUTE)) || at.isAfter(shift(onset, 2n * MINUTE))) return null;
    const changed = newest.images.filter((image) => !previous.images.includes(image));
    const what = changed.length ? ` (${changed.join(', ')})` : '';
    return {
      id: 'h-rollout',
      statement: `The rollout of ${workload} to revision ${newest.revision}${what} that began at ${at.toISOString()} caused the alert's condition`,
      at,
      run,
      mechanism:
        `${workload} began rolling out revision ${newest.revision} at ${at.toISOString()}, ${minutesBetween(at, onset)} min before the condition began, ` +
        (changed.length
          ? `replacing ${previous.images.join(', ')} (revision ${previous.revision})`
          : `with the same images as revision ${previous.revision} (a change of its configuration or environment)`) +
        (newest.changeCause ? `; its change cause: ${newest.changeCause}` : ''),
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [],
      action: {
        title: `Roll ${workload} back to revision ${previous.revision}`,
        rationale: 'The condition began with this rollout and not before',
        verification: `After \`kubectl rollout undo deployment/${workload} -n ${namespace} --to-revision=${previous.revision}\`, the alert resolves`,
      },
    };
  },
};
