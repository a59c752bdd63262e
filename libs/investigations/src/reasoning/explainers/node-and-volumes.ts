import type { Timestamp } from '@svc/platform';
import { anyOf, MINUTE, SeriesOut, seriesOf, shift } from '../series-reading';
import type { DetectedCause, Explainer } from './explainer';
import { escape, podNodeInfo, quote, REQUEST_COUNTERS } from './labels';
import { NEIGHBOUR_QUERIES, noisyNeighbours } from './noisy-neighbour';

/** A filesystem or volume with fewer bytes than this available is full (writes fail). */
const FULL_BYTES = 1024 * 1024;

/**
 * The alerting workload's pods → their nodes: a node not ready or under pressure, or a
 * filesystem of the node or a volume of the pods full, near the onset; with the workload's
 * failures from the pods on that node as the mechanism. The same query reads how busy the
 * nodes' CPU was and which pods' CPU use burst, for the noisy neighbours (see noisy-neighbour).
 */
export const nodeAndVolumesExplainer: Explainer = {
  name: 'nodes and volumes',
  reads: ['kube_pod_info', 'container_cpu_usage_seconds_total'],
  appliesTo: (scope) => !!scope.pods,
  async explain(ctx) {
    const pods = ctx.scope.pods;
    const who = ctx.who;
    const info = await ctx.read(podNodeInfo(pods), `Which nodes ran ${who}?`, -20, 2, 60);
    const nodes = [
      ...new Set(
        seriesOf(info)
          .map((s) => s.metric.node)
          .filter((n): n is string => !!n),
      ),
    ];
    const hosts = [
      ...new Set(
        seriesOf(info)
          .map((s) => s.metric.host_ip)
          .filter((n): n is string => !!n),
      ),
    ];
    // Without a series that places the pods on nodes, nothing to read further.
    if (!nodes.length || !ctx.canRead(1)) return [];
    // node-exporter names its node with a `node` label (kube-prometheus relabels), or its instance is the node or its host IP.
    const instance = `instance=~${JSON.stringify([...nodes.map((n) => `${escape(n)}(:[0-9]+)?`), ...hosts.map((h) => `${escape(h)}:[0-9]+`)].join('|'))}`;
    const fs = 'fstype!~"tmpfs|overlay|squashfs|nsfs|ramfs"';
    const conditionOrFull = await ctx.read(
      [
        `kube_node_status_condition{node=~${anyOf(nodes)}, condition="Ready", status="true"} == 0`,
        `kube_node_status_condition{node=~${anyOf(nodes)}, condition=~"MemoryPressure|DiskPressure|PIDPressure", status="true"} == 1`,
        `node_filesystem_avail_bytes{${fs}, node=~${anyOf(nodes)}} < ${FULL_BYTES}`,
        `node_filesystem_avail_bytes{${fs}, ${instance}} < ${FULL_BYTES}`,
        `(kubelet_volume_stats_available_bytes < ${FULL_BYTES}) and on (namespace, persistentvolumeclaim) kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}}`,
        // How busy each node's CPU was, and the pods whose CPU use burst, with their nodes.
        ...NEIGHBOUR_QUERIES,
      ].join(' or '),
      `Was a node of ${who} not ready or under pressure, a filesystem or volume of it full, or its CPU taken by another pod?`,
    );
    const neighbours = (): Promise<DetectedCause[]> => noisyNeighbours(ctx, conditionOrFull, info, nodes);
    const hits = seriesOf(conditionOrFull)
      .map((s) => ({ s, at: ctx.began(s, conditionOrFull) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at) && x.at.isAfter(shift(ctx.session.window.from, MINUTE)))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1));
    const full = hits.find((x) => x.s.metric.mountpoint !== undefined || x.s.metric.persistentvolumeclaim !== undefined);
    const node = hits.find((x) => x.s.metric.condition !== undefined);
    const pick = full ?? node;
    if (!pick) return neighbours();
    const m = pick.s.metric;
    const nodeName =
      m.node ?? nodes.find((n) => m.instance?.startsWith(n)) ?? nodes[hosts.findIndex((h) => m.instance?.startsWith(`${h}:`))] ?? m.instance ?? 'its node';
    // The mechanism: the workload's failures come from its pods on that node (or using that volume);
    // for a node lost, its pods that stopped answering scrapes count too.
    const job = ctx.scope.job;
    const errors = job ? `sum by (pod) (rate({__name__=~"${REQUEST_COUNTERS}", job=${quote(job)}, code=~"5.."}[1m])) > 0` : '';
    const where = m.persistentvolumeclaim
      ? `kube_pod_spec_volumes_persistentvolumeclaims_info{persistentvolumeclaim=${quote(m.persistentvolumeclaim)}}`
      : podNodeInfo(`node=${quote(nodeName)}`);
    const mechanism =
      job && ctx.canRead(1)
        ? await ctx.read(
            `(${full ? errors : `${errors} or up{job=${quote(job)}} == 0`}) and on (pod) ${where}`,
            `Do ${who}'s failures come from its pods ${m.persistentvolumeclaim ? `using ${m.persistentvolumeclaim}` : `on ${nodeName}`}?`,
          )
        : undefined;
    const onNode = seriesOf(mechanism).filter((s) => (s.values?.length ?? 0) > 0);
    const mechanismRuns = onNode.length ? [mechanism!.ordinal] : [];
    const chainRuns = [info.ordinal, ...(mechanism ? [mechanism.ordinal] : [])];
    if (mechanism && !onNode.length)
      ctx.limitations.push({
        type: 'missing_telemetry',
        statement: `${who}'s failures could not be tied to its pods on ${nodeName}`,
        runRefs: [mechanism.ordinal],
        messageSequences: [],
      });
    if (full) {
      const what = m.persistentvolumeclaim ? `volume ${m.persistentvolumeclaim}` : `filesystem ${m.mountpoint} on ${nodeName}`;
      const filled: DetectedCause = {
        id: 'h-filesystem',
        statement: `The ${what} filled up at ${pick.at.toISOString()} and caused the alert's condition`,
        at: pick.at,
        run: conditionOrFull,
        mechanism: `${what} had less than 1 MiB available from ${pick.at.toISOString()}${onNode.length ? `; ${who}'s failures came from its pods on ${nodeName} (${onNode.map((s) => s.metric.pod).join(', ')})` : ''}`,
        mechanismRuns,
        chainRuns,
        unexplained: [],
        action: {
          title: `Free or grow ${what}`,
          rationale: `It filled up just before ${who} began to fail`,
          verification: `${m.persistentvolumeclaim ? 'kubelet_volume_stats_available_bytes' : 'node_filesystem_avail_bytes'} of ${what} is well above zero and the alert resolves`,
        },
      };
      return [filled, ...(await neighbours())];
    }
    const condition = m.condition === 'Ready' ? 'NotReady' : `under ${m.condition}`;
    const lost: DetectedCause = {
      id: 'h-node',
      statement: `Node ${nodeName} ${condition} from ${pick.at.toISOString()} caused the alert's condition`,
      at: pick.at,
      run: conditionOrFull,
      mechanism: `${nodeName}, which ran ${who}, reported ${condition} from ${pick.at.toISOString()}${onNode.length ? `; ${who}'s failures came from its pods on it (${onNode.map((s) => s.metric.pod).join(', ')})` : ''}`,
      mechanismRuns,
      chainRuns,
      unexplained: [`why ${nodeName} became ${condition}`],
      action: {
        title: `Recover or drain node ${nodeName}`,
        rationale: `${who}'s pods on it failed when it became ${condition}`,
        verification: `kube_node_status_condition{node="${nodeName}", condition="Ready", status="true"} is 1 and the alert resolves`,
      },
    };
    return [lost, ...(await neighbours())];
  },
};
