import type { Timestamp } from '@svc/platform';
import { earliest, MINUTE, pointsOf, round, SeriesOut, seriesOf, shift } from '../series-reading';
import type { RecordedRun } from '../reasoner';
import type { ExplainerContext } from './context';
import type { DetectedCause } from './explainer';
import { podNodeInfo, quote, REQUEST_COUNTERS, SERVER_HISTOGRAMS, workloadOfPod } from './labels';

/** A node whose CPU is busy this share of the time (1 - idle) has none to spare. */
const NODE_SATURATED = 0.9;
/** A pod whose CPU use reached this many cores and BURST_RATIO times its use BURST_LOOKBACK before bursts. */
const BURST_CORES = 0.5;
const BURST_RATIO = 3;
const BURST_LOOKBACK = '10m';
/** Pods whose CPU use burst: BURST_CORES or more and BURST_RATIO times their use BURST_LOOKBACK before, or new pods using that much. */
const POD_CPU = 'sum by (namespace, pod) (rate(container_cpu_usage_seconds_total{container!=""}[1m]))';
const POD_CPU_BEFORE = `sum by (namespace, pod) (rate(container_cpu_usage_seconds_total{container!=""}[1m] offset ${BURST_LOOKBACK}))`;
const BURSTING_PODS = `((${POD_CPU} > ${BURST_CORES}) and (${POD_CPU} > ${BURST_RATIO} * ${POD_CPU_BEFORE} or ${POD_CPU} unless ${POD_CPU_BEFORE}))`;

/**
 * The parts of the nodes query (see node-and-volumes) that noisy neighbours are read from: how
 * busy each node's CPU was, and the pods whose CPU use burst (or that started using much), with
 * their nodes.
 */
export const NEIGHBOUR_QUERIES = [
  `1 - avg by (node, instance) (rate(node_cpu_seconds_total{mode="idle"}[1m]))`,
  `${BURSTING_PODS} * on (namespace, pod) group_left (node, host_ip) ${podNodeInfo()}`,
];

/**
 * Noisy neighbours, from the nodes query of the node-and-volumes explainer (NEIGHBOUR_QUERIES): a
 * pod of another workload whose CPU use burst near the onset, on a node where the alert's pods run
 * and whose CPU ran out (busy NODE_SATURATED of the time or more, and not before). The mechanism is tested by the alert's
 * condition read by pod with the pods' nodes: the pods on that node show it, the pods on other
 * nodes do not (a cause inside the workload would show on all of them). A burst on a node where
 * none of the alert's pods run, on a node with CPU to spare, or while the workload's pods
 * elsewhere show the condition too, is stated and ruled out with the run that shows it.
 */
export async function noisyNeighbours(ctx: ExplainerContext, run: RecordedRun, info: RecordedRun, nodes: string[]): Promise<DetectedCause[]> {
  const who = ctx.who;
  const ownPods = seriesOf(info).filter((s) => !!s.metric.pod && !!s.metric.node);
  const own = new Set(ownPods.map((s) => s.metric.pod));
  const cpu = seriesOf(run).filter((s) => !s.metric.__name__ && !s.metric.condition && !s.metric.mountpoint && !s.metric.persistentvolumeclaim);
  const hostToNode = new Map<string, string>();
  for (const s of [...seriesOf(info), ...cpu]) if (s.metric.host_ip && s.metric.node) hostToNode.set(s.metric.host_ip, s.metric.node);
  const nodeOf = (m: Record<string, string>): string | undefined => {
    if (m.node) return m.node;
    const host = m.instance?.replace(/:\d+$/, '');
    return host ? (hostToNode.get(host) ?? host) : undefined;
  };
  const busy = new Map<string, SeriesOut>();
  for (const s of cpu.filter((x) => !x.metric.pod)) {
    const node = nodeOf(s.metric);
    if (node) busy.set(node, s);
  }
  // The largest burst on each node, of pods that are not the alert's workload's.
  const bursts = new Map<string, { pod: string; namespace?: string; at: Timestamp; reached: number }>();
  for (const s of cpu.filter((x) => !!x.metric.pod && !!x.metric.node)) {
    const pod = s.metric.pod;
    if (own.has(pod) || (ctx.scope.workload && workloadOfPod(pod) === ctx.scope.workload)) continue;
    const at = ctx.began(s, run);
    if (!ctx.near(at)) continue;
    const reached = Math.max(...pointsOf(s).map((p) => p.v));
    const best = bursts.get(s.metric.node);
    if (!best || reached > best.reached) bursts.set(s.metric.node, { pod, namespace: s.metric.namespace, at, reached });
  }
  if (!bursts.size) return [];
  const latency = ctx.scope.latency;
  let byPod: RecordedRun | undefined;
  const out: DetectedCause[] = [];
  // Nodes of the alert's pods first: those are the ones that can explain it.
  const order = [...bursts.entries()].sort(([a], [b]) => Number(nodes.includes(b)) - Number(nodes.includes(a)));
  for (const [node, burst] of order.slice(0, 3)) {
    const workload = workloadOfPod(burst.pod);
    const burstText = `${burst.pod} (${workload}) on ${node} used up to ${round(burst.reached)} cores from ${burst.at.toISOString()}, more than ${BURST_RATIO} times its use ${BURST_LOOKBACK} before (or not running then)`;
    const base: DetectedCause = {
      id: `h-noisy-neighbour${out.length ? `-${out.length + 1}` : ''}`,
      statement: `${burst.pod} (${workload}), whose CPU use burst to ${round(burst.reached)} cores on node ${node} from ${burst.at.toISOString()}, starved ${who} of CPU and caused the alert's condition`,
      at: burst.at,
      run,
      mechanism: burstText,
      mechanismRuns: [],
      chainRuns: [info.ordinal],
      unexplained: [],
      action: {
        title: `Limit the CPU of ${workload} or move it off ${node}`,
        rationale: `Its burst took the CPU of ${node}, where ${who} runs, just before the condition began`,
        verification: `${node}'s idle CPU is back above ${round((1 - NODE_SATURATED) * 100)}% and the alert resolves`,
      },
    };
    const refute = (because: string, runs: number[]): DetectedCause => ({ ...base, refuted: { because, runs } });
    if (!nodes.includes(node)) {
      out.push(refute(`no pod of ${who} that the alert covers runs on ${node}: they run on ${nodes.join(', ')}`, [info.ordinal, run.ordinal]));
      continue;
    }
    const points = busy.has(node) ? pointsOf(busy.get(node)!) : [];
    const upToOnset = points.filter((p) => !p.t.isAfter(shift(ctx.scope.onset, MINUTE)));
    const saturated = upToOnset.find((p) => p.v >= NODE_SATURATED);
    if (upToOnset.length && !saturated) {
      out.push(refute(`${node} had CPU to spare: it was at most ${round(Math.max(...upToOnset.map((p) => p.v)) * 100)}% busy up to the onset`, [run.ordinal]));
      continue;
    }
    if (saturated && saturated === upToOnset[0]) {
      out.push(refute(`${node}'s CPU was already ${round(saturated.v * 100)}% busy when the read began, before the burst`, [run.ordinal]));
      continue;
    }
    if (saturated && saturated.t.isBefore(shift(burst.at, -MINUTE))) {
      out.push(refute(`${node}'s CPU ran out at ${saturated.t.toISOString()}, before the burst`, [run.ordinal]));
      continue;
    }
    if (saturated)
      base.mechanism = `${burstText}; ${node}'s CPU was ${NODE_SATURATED * 100}% busy or more from ${saturated.t.toISOString()} (at most ${round(Math.max(...upToOnset.filter((p) => p.t.isBefore(saturated.t)).map((p) => p.v)) * 100)}% before)`;
    else base.unexplained.push(`whether ${node}'s CPU ran out (node_cpu_seconds_total was not found for it)`);
    // The condition by pod, with each pod's node: on that node's pods only?
    const job = ctx.scope.job;
    if (!byPod && job && ctx.canRead(1)) {
      const onNodes = `* on (pod) group_left (node) max by (pod, node) ${podNodeInfo(ctx.scope.namespace ? `namespace=${quote(ctx.scope.namespace)}` : '')}`;
      byPod = await ctx.read(
        latency
          ? `histogram_quantile(0.99, sum by (pod, le) (rate({__name__=~"${SERVER_HISTOGRAMS}", job=${quote(job)}}[1m]))) ${onNodes}`
          : `(sum by (pod) (rate({__name__=~"${REQUEST_COUNTERS}", job=${quote(job)}, code=~"5.."}[1m])) / sum by (pod) (rate({__name__=~"${REQUEST_COUNTERS}", job=${quote(job)}}[1m]))) ${onNodes}`,
        `Does ${who}'s ${latency ? 'latency' : 'error ratio'} rise on its pods on ${node} only?`,
      );
    }
    const perPod = seriesOf(byPod)
      .filter((s) => !!s.metric.pod && !!s.metric.node)
      .map((s) => ({ pod: s.metric.pod, node: s.metric.node, points: pointsOf(s) }));
    // A pod shows the condition when its level from shortly before the onset is well above the
    // pods' usual level before the burst (read across pods: a pod started since has no past of its own).
    const median = (values: number[]): number | undefined => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const usual = median(perPod.flatMap((p) => p.points.filter((x) => x.t.isBefore(burst.at)).map((x) => x.v))) ?? 0;
    const threshold = latency ? Math.max(usual * 2, 0.005) : Math.max(usual * 5, 0.05);
    const from = shift(ctx.scope.onset, -2n * MINUTE);
    const hit = perPod
      .map((p) => ({ ...p, level: median(p.points.filter((x) => !x.t.isBefore(from)).map((x) => x.v)) }))
      .filter((p) => p.level !== undefined && p.level >= threshold)
      .map((p) => ({ ...p, jump: { at: p.points.find((x) => x.v >= threshold && !x.t.isBefore(burst.at))?.t ?? from } }));
    const elsewhere = ownPods.filter((s) => s.metric.node !== node).map((s) => s.metric.pod);
    const hitHere = hit.filter((p) => p.node === node);
    const hitElsewhere = hit.filter((p) => p.node !== node);
    if (!perPod.length) {
      base.unexplained.push(
        `whether ${who}'s condition comes from its pods on ${node} (${job ? 'its requests could not be read by pod' : 'its service is not known'})`,
      );
    } else if (hitElsewhere.length) {
      out.push(
        refute(`${who}'s pods on other nodes show the condition too (${hitElsewhere.map((p) => `${p.pod} on ${p.node}`).join(', ')})`, [byPod!.ordinal]),
      );
      continue;
    } else if (!hitHere.length) {
      out.push(refute(`${who}'s pods on ${node} do not show the condition`, [byPod!.ordinal]));
      continue;
    } else if (!elsewhere.length) {
      base.unexplained.push(`whether ${node}'s CPU is what degraded ${who}: all its pods run there, so none can be compared with a pod on another node`);
    } else {
      const from = earliest(hitHere.map((p) => p.jump!.at))!;
      base.mechanism += `; ${who}'s ${latency ? 'p99 latency' : 'error ratio'} rose on its pods on ${node} (${hitHere.map((p) => p.pod).join(', ')}) from ${from.toISOString()}, not on its pods on other nodes (${elsewhere.join(', ')})`;
      if (saturated) base.mechanismRuns = [run.ordinal, byPod!.ordinal];
    }
    if (byPod) base.chainRuns.push(byPod.ordinal);
    out.push(base);
  }
  // Ids in order: the first cause that stands is `h-noisy-neighbour`.
  out.sort((a, b) => Number(!!a.refuted) - Number(!!b.refuted));
  out.forEach((c, i) => (c.id = `h-noisy-neighbour${i ? `-${i + 1}` : ''}`));
  return out;
}
