import type { Timestamp } from '@svc/platform';
import { quote } from '../explainers/labels';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { pointsOf, seriesOf } from '../series-reading';
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
  asked: { mounts: string[]; size: boolean; volumes?: boolean },
): Promise<void> {
  const query = (q: string, purpose: string): Promise<RecordedRun> =>
    session.runTool({ tool: 'prometheus.query', integrationId: source.integrationId, arguments: { query: q, time: until.toISOString() }, purpose });
  const namespace = incidentNamespace(session);
  // A volume claim named ("the data-ledger PVC") is that claim alone.
  if (subject.label === 'persistentvolumeclaim') {
    const volumes = await query(claimQuery(`persistentvolumeclaim=${quote(subject.value)}`, ''), `How full volume claim ${subject.value} is`);
    const claims = paired(volumes, 'persistentvolumeclaim').map((d) => ({ ...d, mount: `volume claim ${d.mount}` }));
    if (!claims.length) answer.cannot(`no kubelet volume stats of claim ${subject.value} were read, so how full it is is unknown`, volumes);
    else sayDisks(session, answer, claims, until, asked.size);
    return;
  }
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
    const volumes = await query(claimQuery('', pods), `How full the volumes ${subject.value}'s pods claim are`);
    disks.push(...paired(volumes, 'persistentvolumeclaim').map((d) => ({ ...d, mount: `volume claim ${d.mount}` })));
  }
  // (The volumes alone, when the question names a volume and there are some: "how big is the ledger volume?")
  const claimed = disks.filter((d) => d.mount.startsWith('volume claim '));
  const named = asked.mounts.length
    ? disks.filter((d) => asked.mounts.some((m) => d.mount === m || d.mount.endsWith(` ${m}`)))
    : asked.volumes && claimed.length
      ? claimed
      : disks;
  if (!named.length) {
    answer.cannot(
      asked.mounts.length
        ? `no filesystem mounted at ${asked.mounts.join(', ')} was read for ${subject.value} (node-exporter's filesystems or kubelet's volume stats)`
        : `no filesystem or volume of ${subject.value} was read (node-exporter's node_filesystem_* or kubelet's volume stats), so how full its disks are is unknown`,
      filesystems,
    );
    return;
  }
  sayDisks(session, answer, named, until, asked.size);
}

/**
 * The size, free space and share used of volume claims (kubelet's stats), those `claim` selects
 * (a matcher of the claim) or those the pods `pods` select claim, each labelled `measure`.
 */
function claimQuery(claim: string, pods: string): string {
  const claimed = pods
    ? ` * on (namespace, persistentvolumeclaim) group_left () max by (namespace, persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}})`
    : '';
  const each = (metric: string, measure: string, expression = `${metric}{${claim}}`): string =>
    `label_replace(max by (namespace, persistentvolumeclaim, node) (${expression})${claimed}, "measure", "${measure}", "", "")`;
  return [
    each('kubelet_volume_stats_capacity_bytes', 'size'),
    each('kubelet_volume_stats_available_bytes', 'free'),
    each('', 'used', `1 - kubelet_volume_stats_available_bytes{${claim}} / kubelet_volume_stats_capacity_bytes{${claim}}`),
  ].join(' or ');
}

/** The disks read, the fullest first (a table when several), as one statement citing their reads. */
function sayDisks(session: InvestigationSession, answer: AnswerWriter, named: Disk[], until: Timestamp, size: boolean): void {
  const asked = { size };
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

/** A disk this full is full. */
const FULL = 0.99;
/** A disk within this share of the fullest it got has filled (a megabyte of 100 GB): the last free bytes go slowly. */
const FILLED_WITHIN = 0.00001;

/**
 * When a disk of `subject` filled up ("when did ledger's storage fill up?", "when did it hit
 * 100%?"): the share used of the filesystems of its nodes and of the volumes its pods claim (or
 * of the claim named) read over the range, and the first moment each that was not full at its
 * start reached FULL; those full from the start are said to have been full all along, so a disk
 * full for hours is not taken for the one that filled.
 */
export async function answerDiskFilled(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  subject: Subject,
  from: Timestamp,
  until: Timestamp,
  mounts: string[],
): Promise<void> {
  const namespace = incidentNamespace(session);
  const real = `fstype!~"${VIRTUAL_FILESYSTEMS}"`;
  const used = (selector: string) => `1 - node_filesystem_avail_bytes{${selector}} / node_filesystem_size_bytes{${selector}}`;
  const volume = (selector: string) => `1 - kubelet_volume_stats_available_bytes{${selector}} / kubelet_volume_stats_capacity_bytes{${selector}}`;
  const pods = subject.label === 'node' || subject.label === 'persistentvolumeclaim' ? '' : workloadPods(namespace, subject.value);
  const query =
    subject.label === 'persistentvolumeclaim'
      ? `max by (persistentvolumeclaim, node) (${volume(`persistentvolumeclaim=${quote(subject.value)}`)})`
      : subject.label === 'node'
        ? `max by (node, mountpoint) (${used(`${real}, node=${quote(subject.value)}`)})`
        : `max by (node, mountpoint) (${used(real)}) * on (node) group_left () max by (node) (kube_pod_info{${pods}}) or max by (persistentvolumeclaim, node) (${volume('')}) * on (persistentvolumeclaim) group_left () max by (persistentvolumeclaim) (kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}})`;
  const step = Math.max(30, Math.ceil(Number(until.epochMicros - from.epochMicros) / 1e6 / 240));
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: { query, start: from.toISOString(), end: until.toISOString(), step },
    purpose: `When the filesystems and volumes of ${subject.value} filled up`,
  });
  const disks = seriesOf(run)
    .map((s) => ({
      mount: s.metric.mountpoint ?? `volume claim ${s.metric.persistentvolumeclaim ?? ''}`,
      node: (s.metric.node ?? '').split('.')[0],
      points: pointsOf(s),
    }))
    .filter((d) => d.points.length && (!mounts.length || mounts.some((m) => d.mount === m || d.mount.endsWith(` ${m}`))));
  if (!disks.length) {
    answer.cannot(
      `no filesystem or volume of ${subject.value} was read from ${clock(from, until)} to ${clock(until, until)}, so when one filled up is unknown`,
      run,
    );
    return;
  }
  // Filled: when it first reached the fullest it got (a disk fills its last percent slowly, so not when it passed FULL).
  const filled = disks
    .filter((d) => d.points[0].v < FULL)
    .map((d) => {
      const top = Math.max(...d.points.map((p) => p.v));
      return { ...d, at: top >= FULL ? d.points.find((p) => p.v >= top - FILLED_WITHIN) : undefined };
    })
    .filter((d): d is typeof d & { at: { t: Timestamp; v: number } } => !!d.at)
    .sort((a, b) => (a.at.t.isAfter(b.at.t) ? -1 : 1));
  const always = disks.filter((d) => d.points[0].v >= FULL);
  const where = (d: { mount: string; node: string }) => `${d.mount}${d.node ? ` on ${d.node}` : ''}`;
  const full = always.length
    ? `; ${always.map(where).join(', ')} ${always.length === 1 ? 'was' : 'were'} full already at ${clock(from, until)}, the start of the range read`
    : '';
  if (!filled.length) {
    answer.record(session, `No filesystem or volume of ${subject.value} filled up from ${clock(from, until)} to ${clock(until, until)}${full}`, run);
    return;
  }
  answer.record(
    session,
    filled
      .map(
        (d, i) =>
          `${i === 0 ? '' : 'and '}${where(d)} filled up at ${clock(d.at.t, until)} (from ${quantity(d.points[0].v, 'ratio')} used at ${clock(d.points[0].t, until)})`,
      )
      .join('; ') + full,
    run,
  );
}
