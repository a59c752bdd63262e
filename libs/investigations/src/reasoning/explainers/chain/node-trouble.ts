import type { Timestamp } from '@svc/platform';
import type { RecordedRun } from '../../reasoner';
import { anyOf, SeriesOut, seriesOf } from '../../series-reading';
import type { ExplainerContext } from '../context';

/** A node of some pods that was not Ready or under pressure near the onset, with the runs that read it. */
export interface NodeTrouble {
  node: string;
  condition: string;
  at: Timestamp;
  run: RecordedRun;
  runs: number[];
  nodes: string[];
}

/**
 * The nodes of pods (kube_pod_info) and whether one of them was not Ready or under memory, disk
 * or PID pressure near the onset (kube_node_status_condition).
 */
export async function nodeTrouble(ctx: ExplainerContext, podMatchers: string, who: string): Promise<NodeTrouble | null> {
  const info = await ctx.read(`max by (node, host_ip, pod) (kube_pod_info{${podMatchers}})`, `Which nodes ran ${who}?`, -20, 2, 60);
  const nodes = [
    ...new Set(
      seriesOf(info)
        .map((s) => s.metric.node)
        .filter((n): n is string => !!n),
    ),
  ];
  if (!nodes.length || !ctx.canRead(1)) return null;
  const run = await ctx.read(
    `kube_node_status_condition{node=~${anyOf(nodes)}, condition="Ready", status="true"} == 0 or kube_node_status_condition{node=~${anyOf(nodes)}, condition=~"MemoryPressure|DiskPressure|PIDPressure", status="true"} == 1`,
    `Was a node of ${who} not ready or under pressure?`,
  );
  const hit = seriesOf(run)
    .map((s) => ({ s, at: ctx.began(s, run) }))
    .filter((x): x is { s: SeriesOut; at: Timestamp } => ctx.near(x.at) && x.at.isAfter(ctx.session.window.from))
    .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
  if (!hit) return null;
  const condition = hit.s.metric.condition === 'Ready' ? 'NotReady' : `under ${hit.s.metric.condition}`;
  return { node: hit.s.metric.node, condition, at: hit.at, run, runs: [info.ordinal, run.ordinal], nodes };
}
