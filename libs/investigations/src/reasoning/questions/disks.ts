import type { Timestamp } from '@svc/platform';
import { quote } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { seriesOf } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock, quantity } from './format';
import { incidentNamespace, Subject, VIRTUAL_FILESYSTEMS, workloadPods } from './signal-reads';

const MAX_ROWS = 12;

/** One filesystem or volume: where it is mounted (or the claim it is), on which node, its size and what is free. */
interface Disk {
  mount: string;
  node: string;
  size: number;
  free: number;
  /** The share used, as the read computed it. */
  used: number;
  run: RecordedRun;
}

/**
 * How full the disks of `subject` are ("which mount is full?", "how big is /var/lib/media?",
 * "how full is / on that node?"): node-exporter's filesystems of the node named, or of the nodes
 * the service's pods run on, and kubelet's stats of the volumes its pods claim; the fullest first,
 * or the mounts named. `size` leads with the size rather than the share used.
 */
export async function answerDisks(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  subject: Subject,
  until: Timestamp,
  asked: { mounts: string[]; size: boolean },
): Promise<void> {
  const query = (q: string, purpose: string): Promise<RecordedRun> =>
    session.runTool({ tool: 'prometheus.query', integrationId: source.integrationId, arguments: { query: q, time: until.toISOString() }, purpose });
  const namespace = incidentNamespace(session);
  const pods = subject.label === 'node' ? '' : workloadPods(namespace, subject.value);
  // The node's filesystems, or those of the nodes the service's pods run on; size and free space in one read.
  const onNodes = subject.label === 'node' ? `, node=${quote(subject.value)}` : '';
  const joined = subject.label === 'node' || !pods ? '' : ` * on (node) group_left () max by (node) (kube_pod_info{${pods}})`;
  const real = `fstype!~"${VIRTUAL_FILESYSTEMS}"${onNodes}`;
  const each = (expression: string, measure: string): string =>
    `label_replace(max by (node, mountpoint) (${expression})${joined}, "measure", "${measure}", "", "")`;
  const filesystems = await query(
    [
      each(`node_filesystem_size_bytes{${real}}`, 'size'),
      each(`node_filesystem_avail_bytes{${real}}`, 'free'),
      each(`1 - node_filesystem_avail_bytes{${real}} / node_filesystem_size_bytes{${real}}`, 'used'),
    ].join(' or '),
    `How full the filesystems of ${subject.label === 'node' ? `node ${subject.value}` : `the nodes ${subject.value} runs on`} are`,
  );
  const disks = paired(filesystems, 'mountpoint');
  // The volumes the service's pods claim (kubelet's stats of each claim).
  if (pods) {
    const claimed = ` * on (namespace, persistentvolumeclaim) group_left () max by (namespace, persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}})`;
    const claim = (expression: string, measure: string): string =>
      `label_replace(max by (namespace, persistentvolumeclaim, node) (${expression})${claimed}, "measure", "${measure}", "", "")`;
    const volumes = await query(
      [
        claim('kubelet_volume_stats_capacity_bytes', 'size'),
        claim('kubelet_volume_stats_available_bytes', 'free'),
        claim('1 - kubelet_volume_stats_available_bytes / kubelet_volume_stats_capacity_bytes', 'used'),
      ].join(' or '),
      `How full the volumes ${subject.value}'s pods claim are`,
    );
    disks.push(...paired(volumes, 'persistentvolumeclaim').map((d) => ({ ...d, mount: `volume claim ${d.mount}` })));
  }
  const named = asked.mounts.length ? disks.filter((d) => asked.mounts.some((m) => d.mount === m || d.mount.endsWith(` ${m}`))) : disks;
  if (!named.length) {
    answer.cannot(
      asked.mounts.length
        ? `no filesystem mounted at ${asked.mounts.join(', ')} was read for ${subject.value} (node-exporter's filesystems or kubelet's volume stats)`
        : `no filesystem or volume of ${subject.value} was read (node-exporter's node_filesystem_* or kubelet's volume stats), so how full its disks are is unknown`,
      filesystems,
    );
    return;
  }
  const used = (d: Disk): number => d.used;
  const rows = named.sort((a, b) => used(b) - used(a)).slice(0, MAX_ROWS);
  const short = (node: string): string => node.split('.')[0];
  const say = (d: Disk): string =>
    asked.size
      ? `${d.mount} on ${short(d.node)} is ${quantity(d.size, 'bytes')}, ${quantity(used(d), 'ratio')} used (${quantity(d.free, 'bytes')} free)`
      : `${d.mount} on ${short(d.node)} is ${quantity(used(d), 'ratio')} used, ${quantity(d.free, 'bytes')} free of ${quantity(d.size, 'bytes')}`;
  const table =
    rows.length > 1
      ? [
          '| mount | node | used | free | size |',
          '|---|---|---:|---:|---:|',
          ...rows.map((d) => `| ${d.mount} | ${short(d.node)} | ${quantity(used(d), 'ratio')} | ${quantity(d.free, 'bytes')} | ${quantity(d.size, 'bytes')} |`),
        ].join('\n')
      : undefined;
  answer.record(
    session,
    `${rows.length > 1 ? 'The fullest of ' + rows.length + ' filesystems and volumes: ' : ''}${say(rows[0])} at ${clock(until, until)}`,
    [...new Set(rows.map((d) => d.run))],
    table,
  );
}

/** The size and free space of each filesystem (by `key`: its mountpoint, or its claim) of a read that labels them `measure`. */
function paired(run: RecordedRun, key: string): Disk[] {
  const byMount = new Map<string, Partial<Disk> & { mount: string; node: string }>();
  for (const s of seriesOf(run)) {
    const mount = s.metric[key];
    const v = Number(s.value?.[1] ?? s.values?.at(-1)?.[1]);
    if (!mount || !Number.isFinite(v)) continue;
    const node = s.metric.node ?? s.metric.instance ?? '';
    const id = `${node}\u0000${mount}`;
    const disk = byMount.get(id) ?? { mount, node };
    if (s.metric.measure === 'size') disk.size = v;
    else if (s.metric.measure === 'free') disk.free = v;
    else if (s.metric.measure === 'used') disk.used = v;
    byMount.set(id, disk);
  }
  return [...byMount.values()].flatMap((d) =>
    d.size !== undefined && d.free !== undefined && d.used !== undefined
      ? [{ mount: d.mount, node: d.node, size: d.size, free: d.free, used: d.used, run }]
      : [],
  );
}
