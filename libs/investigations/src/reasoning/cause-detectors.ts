import { Timestamp } from '@svc/platform';
import type { ActionItem, LimitationItem } from '../conclusion.types';
import type { InvestigationSession, RecordedRun, SourceBrief } from './reasoner';
import { anyOf, earliest, firstSampleAt, jumpOf, minutesBetween, MINUTE, pointsOf, round, SeriesOut, seriesOf, shift } from './series-reading';

/**
 * A cause a detector found and dated near the onset: what happened, when, the run that showed it,
 * the runs that tested its mechanism (queries that would have come back empty or flat otherwise),
 * the further runs of its causal chain, and what the data leaves unexplained about it.
 */
export interface DetectedCause {
  /** The hypothesis id, one per cause family (`h-dependency`, `h-filesystem`, ...). */
  id: string;
  /** The cause as a hypothesis: "... caused the alert's condition". */
  statement: string;
  at: Timestamp;
  run: RecordedRun;
  mechanism: string;
  mechanismRuns: number[];
  chainRuns: number[];
  unexplained: string[];
  action: Omit<ActionItem, 'runRefs'>;
  /** A candidate stated and ruled out by what the detector read: why, and the runs that show it. */
  refuted?: { because: string; runs: number[] };
  /** The pods whose restarts this cause explains (a restart of one of them is a step of its chain, not a cause of its own). */
  restartedPods?: string[];
}

/** What the detectors know of the alert investigated. */
export interface DetectionScope {
  onset: Timestamp;
  /** The alert's own labels. */
  labels: Record<string, string>;
  /** The alert's job, when it names one that is not a Kubernetes exporter's. */
  job?: string;
  namespace?: string;
  /** Label matchers of the alerting workload's pods (namespace and pod), '' when the alert names none. */
  pods: string;
  /** The workload the alert's pods belong to, when known. */
  workload?: string;
  /** The alert's condition is about latency (a duration histogram), not errors. */
  latency: boolean;
}

/** Client-side request counters of the common instrumentation libraries, labelled with the peer called. */
const CLIENT_COUNTERS = 'http_client_requests_total|http_client_requests_seconds_count|grpc_client_handled_total';
/** Client-side latency histograms, labelled with the peer called. */
const CLIENT_HISTOGRAMS = 'http_client_request_duration_seconds_bucket|http_client_requests_seconds_bucket|grpc_client_handling_seconds_bucket';
/** Labels that name the peer of a client-side series, in order of preference. */
const PEER_LABELS = ['peer', 'peer_service', 'server_address', 'target', 'host', 'client_name', 'grpc_service'];
/** Labels that give a client call's outcome. */
const OUTCOME_LABELS = ['code', 'status', 'status_code', 'outcome', 'grpc_code'];
/** HTTP server request counters of the common instrumentation libraries. */
const REQUEST_COUNTERS = 'http_requests_total|http_server_requests_seconds_count|http_server_request_duration_seconds_count';
/** HTTP server latency histograms of the common instrumentation libraries. */
const SERVER_HISTOGRAMS = 'http_request_duration_seconds_bucket|http_server_requests_seconds_bucket|http_server_request_duration_seconds_bucket';

/** A caller's failure ratio to a peer at this level (and five times its usual) is a failure of the calls. */
const PEER_FAILURE_RATIO = 0.1;
/** A peer's p99 at this many times its usual level is a slowdown. */
const PEER_SLOWDOWN = 3;
/** A filesystem or volume with fewer bytes than this available is full (writes fail). */
const FULL_BYTES = 1024 * 1024;
/** Connections at or above this share of the maximum saturate a database or pool. */
const SATURATED_SHARE = 0.9;
/** A container throttled in this share of its CFS periods (and four times its usual) is throttled. */
const THROTTLED_SHARE = 0.25;
/** Working set at or above this share of the memory limit counts as at the limit. */
const AT_MEMORY_LIMIT = 0.9;
/** A route's request rate at this many times its usual level (and at least SURGE_MIN_RPS) is a surge. */
const SURGE_RATIO = 2;
const SURGE_MIN_RPS = 1;
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
/** Runs kept for testing the hypotheses once detection is done. */
const RESERVED_RUNS = 5;

const SECOND = 1_000_000n;
const quote = (v: string): string => JSON.stringify(v);
const escape = (v: string): string => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a label value names `name`: equal to it, or containing it between non-alphanumeric characters. */
export function mentions(value: string, name: string): boolean {
  if (!name) return false;
  const v = value.toLowerCase();
  const n = name.toLowerCase();
  return v === n || new RegExp(`(^|[^a-z0-9])${escape(n)}([^a-z0-9]|$)`).test(v);
}

const mentionedBy = (metric: Record<string, string>, name: string): boolean => Object.entries(metric).some(([k, v]) => k !== '__name__' && mentions(v, name));

/** The peer a client-side series calls. */
const peerOf = (metric: Record<string, string>): string | undefined => PEER_LABELS.map((l) => metric[l]).find((v) => !!v);

/** Whether a client-side series counts failed calls (a non-2xx/3xx code, a gRPC code other than OK, an error outcome). */
export function failedCall(metric: Record<string, string>): boolean {
  for (const label of ['code', 'status', 'status_code']) {
    const v = metric[label];
    if (v !== undefined && v !== '') return !/^[23]\d\d$/.test(v) && !/^(ok|success)$/i.test(v);
  }
  if (metric.grpc_code) return metric.grpc_code !== 'OK';
  if (metric.outcome) return !/^(success|redirection|informational)$/i.test(metric.outcome);
  return false;
}

/** The outcome of a failed call as its series names it. */
const outcomeOf = (metric: Record<string, string>): string => OUTCOME_LABELS.map((l) => metric[l]).find((v) => !!v) ?? 'failed';

/** The Deployment (or StatefulSet) a pod belongs to, from its name: `<deployment>-<hash>-<hash>` or `<statefulset>-<n>`. */
export function workloadOfPod(pod: string): string {
  return /^(.+)-[a-z0-9]{6,10}-[a-z0-9]{5}$/.exec(pod)?.[1] ?? /^(.+)-\d+$/.exec(pod)?.[1] ?? pod;
}

/** Jobs of the exporters that describe Kubernetes itself: an alert on their series is about the pods they name. */
const EXPORTER_JOBS = /^(kube-state-metrics|kubelet|cadvisor|node-exporter|blackbox(-exporter)?|apiserver|kube-apiserver)$/;

/** The one value a label has across the alerts, when they agree on one. */
const singleValue = (alerts: Array<Record<string, string>>, name: string): string | undefined => {
  const values = [...new Set(alerts.map((a) => a[name]).filter((v): v is string => !!v))];
  return values.length === 1 ? values[0] : undefined;
};

/**
 * Label matchers for Kubernetes' own series (kube-state-metrics, cAdvisor), whose `job` is the
 * exporter's: the alerts' namespace, and their pod, or else the pods named after the workload
 * the alerts name (`<deployment>-<hash>-<hash>`, `<statefulset>-<n>`). Empty when the alerts
 * name no pod or workload.
 */
export function podMatchersOf(alerts: Array<Record<string, string>>): string {
  const namespace = singleValue(alerts, 'namespace');
  const pod = singleValue(alerts, 'pod');
  // Several pods of one workload (an alert per pod): the workload's pods.
  const podsWorkload = singleValue(
    alerts.map((a): Record<string, string> => (a.pod ? { workload: workloadOfPod(a.pod) } : {})),
    'workload',
  );
  const job = singleValue(alerts, 'job');
  const workload =
    singleValue(alerts, 'deployment') ??
    singleValue(alerts, 'statefulset') ??
    (alerts.every((a) => a.pod) ? podsWorkload : undefined) ??
    singleValue(alerts, 'service') ??
    (job && !EXPORTER_JOBS.test(job) ? job : undefined);
  const podMatcher = pod ? `pod=${JSON.stringify(pod)}` : workload ? `pod=~${JSON.stringify(`${escape(workload)}-.+`)}` : '';
  if (!podMatcher) return '';
  return [namespace ? `namespace=${JSON.stringify(namespace)}` : '', podMatcher].filter(Boolean).join(', ');
}

/**
 * What the detectors are told of an alert (the labels of its series, one set per alert of the
 * same rule): its labels, its job and workload, its pods, and whether its condition is about latency.
 */
export function detectionScopeOf(alerts: Array<Record<string, string>>, onset: Timestamp, latency: boolean): DetectionScope {
  const labels = alerts[0] ?? {};
  const job = singleValue(alerts, 'job') ? labels.job : undefined;
  const own = job && !EXPORTER_JOBS.test(job) ? job : undefined;
  return {
    onset,
    labels,
    job: own,
    namespace: singleValue(alerts, 'namespace'),
    pods: podMatchersOf(alerts),
    workload: labels.deployment ?? labels.statefulset ?? (labels.pod ? workloadOfPod(labels.pod) : undefined) ?? labels.service ?? own,
    latency,
  };
}

const MiB = 1024 * 1024;
const bytes = (n: number): string => (n >= 1024 ** 3 ? `${round(n / 1024 ** 3)} GiB` : `${round(n / MiB)} MiB`);

/**
 * Detectors over the standard exporters (kube-state-metrics, node-exporter, cAdvisor, blackbox,
 * postgres and queue exporters, client-side HTTP and gRPC metrics). Each finds and dates a
 * candidate cause near the onset on the alert's entity or its relations (pod → node, caller →
 * peer), discovered through queries by the alert's labels, and asks why it happened in turn: a
 * peer failing → down (its exporter's `up`, a probe), its certificate expired, its node not
 * ready, its connections exhausted; a crash loop → out of memory or a configuration change; a
 * stale queue → its consumers gone, a workload scaled to zero. A detector whose series do not
 * exist finds nothing; it never fails the investigation.
 */
export class CauseDetectors {
  readonly limitations: LimitationItem[] = [];
  /** Pods whose liveness probes were read and passed near the onset, with the run that read them. */
  readonly livenessPassed = new Map<string, number>();

  constructor(
    private readonly session: InvestigationSession,
    private readonly source: SourceBrief,
    private readonly scope: DetectionScope,
  ) {}

  /** Every detector that applies to the alert, in order of how directly it reads the alert's entity, within the run budget. */
  async detect(): Promise<DetectedCause[]> {
    const found: DetectedCause[] = [];
    const steps: Array<() => Promise<DetectedCause | DetectedCause[] | null>> = [];
    const s = this.scope;
    const queue = s.labels.queue ?? s.labels.topic;
    if (queue) steps.push(() => this.consumersGone(queue));
    if (s.pods) steps.push(() => this.crashLoop());
    if (s.job) steps.push(() => this.peers());
    if (s.job) steps.push(() => this.ownPool());
    if (s.job) steps.push(() => this.surge());
    if (s.pods) steps.push(() => this.nodesAndVolumes());
    if (s.pods) steps.push(() => this.throttling());
    // Last: a restart after failing liveness probes asks why the probe failed, among the causes found before.
    if (s.pods) steps.push(() => this.livenessRestarts(found));
    for (const step of steps) {
      if (!this.canRead(2 + found.filter((c) => !c.refuted).length)) break;
      const cause = await step();
      if (cause) found.push(...(Array.isArray(cause) ? cause : [cause]));
    }
    return found;
  }

  private canRead(extra = 0): boolean {
    return this.session.runs.length + RESERVED_RUNS + extra < this.session.budgets.toolRuns;
  }

  private read(query: string, purpose: string, fromMinutes = -20, untilMinutes = 2, step?: number): Promise<RecordedRun> {
    const onset = this.scope.onset;
    const window = this.session.window;
    const wanted = shift(onset, BigInt(fromMinutes) * MINUTE);
    const start = wanted.isAfter(window.from) ? wanted : window.from;
    const until = shift(onset, BigInt(untilMinutes) * MINUTE);
    const end = until.isAfter(window.until) ? window.until : until;
    const seconds = Number((end.epochMicros - start.epochMicros) / SECOND);
    return this.session.runTool({
      tool: 'prometheus.query_range',
      integrationId: this.source.integrationId,
      arguments: { query, start: start.toISOString(), end: end.toISOString(), step: step ?? Math.max(15, Math.ceil(seconds / 100)) },
      purpose,
    });
  }

  /** When a series began within a range read: its first sample, or null when it was there from the range's start (it began earlier: not a change). */
  private began(s: SeriesOut, run: RecordedRun): Timestamp | null {
    const at = firstSampleAt(s);
    const out = run.output as { start?: string; stepSeconds?: number } | null;
    const start = out?.start ? Timestamp.parse(out.start) : null;
    if (!at || !start) return at;
    return at.epochMicros - start.epochMicros > BigInt(Math.round((out?.stepSeconds ?? 0) * 1_000_000)) ? at : null;
  }

  /** Near enough the onset to have started it: from the window's start to a minute after the onset. */
  private near(at: Timestamp | null): at is Timestamp {
    return !!at && !at.isAfter(shift(this.scope.onset, MINUTE)) && !at.isBefore(this.session.window.from);
  }

  // ---------------------------------------------------------------- peers

  /**
   * The alerting service's calls to its peers (client-side counters and histograms labelled with
   * the peer): a peer whose calls began to fail, or to answer slowly, near the onset; then why.
   */
  private async peers(): Promise<DetectedCause | null> {
    const job = this.scope.job!;
    const first = this.scope.latency ? () => this.slowPeer(job, 0) : () => this.failingPeer(job);
    const second = this.scope.latency ? () => this.failingPeer(job) : () => this.slowPeer(job, 0);
    return (await first()) ?? (this.canRead(3) ? await second() : null);
  }

  private async failingPeer(job: string): Promise<DetectedCause | null> {
    const run = await this.read(
      `sum by (${[...PEER_LABELS, ...OUTCOME_LABELS].join(', ')}) (rate({__name__=~"${CLIENT_COUNTERS}", job=${quote(job)}}[1m]))`,
      `Did ${job}'s calls to a dependency begin to fail near the onset?`,
    );
    // Per peer and time: calls and failed calls.
    const byPeer = new Map<string, { total: Map<string, number>; failed: Map<string, number>; outcomes: Map<string, number> }>();
    for (const s of seriesOf(run)) {
      const peer = peerOf(s.metric);
      if (!peer) continue;
      const entry = byPeer.get(peer) ?? { total: new Map(), failed: new Map(), outcomes: new Map() };
      byPeer.set(peer, entry);
      const failed = failedCall(s.metric);
      for (const p of pointsOf(s)) {
        const key = p.t.toISOString();
        entry.total.set(key, (entry.total.get(key) ?? 0) + p.v);
        if (failed) {
          entry.failed.set(key, (entry.failed.get(key) ?? 0) + p.v);
          entry.outcomes.set(outcomeOf(s.metric), (entry.outcomes.get(outcomeOf(s.metric)) ?? 0) + p.v);
        }
      }
    }
    let best: { peer: string; at: Timestamp; usual: number; reached: number; outcome: string } | null = null;
    for (const [peer, { total, failed, outcomes }] of byPeer) {
      const times = [...total.keys()].sort();
      const ratios = times.map((t) => ({ t, v: (total.get(t) ?? 0) > 0 ? (failed.get(t) ?? 0) / total.get(t)! : 0 }));
      const series: SeriesOut = { metric: {}, values: ratios.map((r) => [r.t, r.v]) };
      const jump = jumpOf(series, 5, PEER_FAILURE_RATIO);
      if (!jump || !this.near(jump.at)) continue;
      // Held: most samples from the jump on stay failing.
      const after = ratios.filter((r) => !Timestamp.parse(r.t)!.isBefore(jump.at));
      if (after.filter((r) => r.v >= PEER_FAILURE_RATIO).length < after.length / 2) continue;
      const outcome = [...outcomes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'failed';
      if (!best || jump.reached > best.reached) best = { peer, ...jump, outcome };
    }
    if (!best) return null;
    const failing = `${job}'s calls to ${best.peer} began to fail (${best.outcome}) at ${best.at.toISOString()}: ${round(best.usual * 100)}% to ${round(best.reached * 100)}% of them`;
    return this.whyPeerFails(best.peer, best.at, failing, run, job);
  }

  /**
   * Why calls to a peer fail: is it down (its exporter's `up`, an `*_up` of its exporter, a
   * blackbox probe), and then why (its certificate expired, its pods' node not ready); are its
   * connections exhausted. The caller's failures are the mechanism's evidence.
   */
  private async whyPeerFails(peer: string, at: Timestamp, failing: string, callsRun: RecordedRun, caller: string): Promise<DetectedCause> {
    const base: DetectedCause = {
      id: 'h-dependency',
      statement: `${peer}, which ${caller} calls, failed from ${at.toISOString()} and caused the alert's condition`,
      at,
      run: callsRun,
      mechanism: failing,
      mechanismRuns: [callsRun.ordinal],
      chainRuns: [],
      unexplained: [`why calls to ${peer} failed (it was not seen down, out of connections or with an expired certificate)`],
      action: {
        title: `Restore ${peer} for ${caller}`,
        rationale: `${caller}'s calls to ${peer} failed from just before the condition began`,
        verification: `${caller}'s calls to ${peer} succeed again and the alert resolves`,
      },
    };
    if (!this.canRead(1)) return base;
    const down = await this.read(
      '{__name__=~"up|[a-z0-9_]+_up|probe_success"} == 0',
      `Is ${peer} down: its exporter's up, an exporter's *_up, a blackbox probe?`,
      -20,
      2,
    );
    base.chainRuns.push(down.ordinal);
    const downSeries = seriesOf(down)
      .filter((s) => mentionedBy(s.metric, peer))
      .map((s) => ({ s, at: firstSampleAt(s) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => this.near(x.at));
    const downAt = earliest(downSeries.map((x) => x.at));
    const probe = downSeries.find((x) => x.s.metric.__name__ === 'probe_success');
    if (probe && this.canRead(1)) {
      const cert = await this.read(
        `probe_ssl_earliest_cert_expiry{instance=${quote(probe.s.metric.instance ?? '')}}`,
        `Did the certificate of ${probe.s.metric.instance ?? peer} expire?`,
        -20,
        2,
        60,
      );
      base.chainRuns.push(cert.ordinal);
      const expiry = seriesOf(cert)
        .flatMap(pointsOf)
        .map((p) => p.v)
        .find((v) => v > 0);
      const expiredAt = expiry !== undefined ? Timestamp.fromEpochMicros(BigInt(Math.round(expiry)) * SECOND) : null;
      if (expiredAt && this.near(expiredAt) && !expiredAt.isAfter(shift(at, MINUTE))) {
        const target = probe.s.metric.instance ?? peer;
        return {
          ...base,
          id: 'h-certificate',
          statement: `The TLS certificate of ${peer} (${target}) expired at ${expiredAt.toISOString()} and caused the alert's condition`,
          at: expiredAt,
          run: cert,
          mechanism: `The certificate probed at ${target} (probe_ssl_earliest_cert_expiry) expired at ${expiredAt.toISOString()}; the probe failed from ${probe.at.toISOString()} and ${failing}`,
          mechanismRuns: [cert.ordinal, down.ordinal, callsRun.ordinal],
          unexplained: [],
          action: {
            title: `Renew the TLS certificate of ${peer}`,
            rationale: `It expired at ${expiredAt.toISOString()}, and calls to ${peer} failed from then on`,
            verification: `probe_ssl_earliest_cert_expiry for ${target} is in the future, probe_success is 1 and the alert resolves`,
          },
        };
      }
    }
    if (downAt) {
      const shown = downSeries.find((x) => x.at.epochMicros === downAt.epochMicros)!.s.metric;
      const what = `${shown.__name__ ?? 'up'}${shown.instance ? ` of ${shown.instance}` : ''}`;
      // The series itself, from well before: up (1) until it went down, or down all along (then not what changed).
      const history = this.canRead(2)
        ? await this.read(
            `${shown.__name__ ?? 'up'}{${Object.entries(shown)
              .filter(([k]) => k !== '__name__')
              .map(([k, v]) => `${k}=${quote(v)}`)
              .join(', ')}}`,
            `Was ${peer} up before ${downAt.toISOString()}?`,
            -40,
            2,
          )
        : undefined;
      if (history) base.chainRuns.push(history.ordinal);
      const wasUp = seriesOf(history)
        .flatMap(pointsOf)
        .some((p) => p.v > 0 && p.t.isBefore(downAt));
      if (history?.outcome === 'succeeded' && !wasUp) {
        this.limitations.push({
          type: 'scope',
          statement: `${what} was already 0 before the window read (${peer} had been down for a while), so it going down is not what changed at the onset`,
          runRefs: [history.ordinal],
          messageSequences: [],
        });
        return base;
      }
      const cause: DetectedCause = {
        ...base,
        statement: `${peer}, which ${caller} calls, went down at ${downAt.toISOString()} and caused the alert's condition`,
        at: downAt,
        run: down,
        mechanism: `${what} went from 1 to 0 at ${downAt.toISOString()}; ${failing}`,
        mechanismRuns: [...(history && wasUp ? [history.ordinal] : [down.ordinal]), callsRun.ordinal],
        unexplained: [`why ${peer} went down`],
      };
      // A peer's pods that stopped answering: was their node lost?
      const pods = [...new Set(downSeries.map((x) => x.s.metric.pod).filter((p): p is string => !!p))];
      if (pods.length && this.canRead(2)) {
        const node = await this.nodeTrouble(`pod=~${anyOf(pods)}`, `the pods of ${peer}`);
        if (node) {
          cause.chainRuns.push(...node.runs);
          return {
            ...cause,
            id: 'h-node',
            statement: `Node ${node.node} ${node.condition} from ${node.at.toISOString()}, which took down ${peer} (called by ${caller}), caused the alert's condition`,
            at: node.at,
            run: node.run,
            mechanism: `${node.node} reported ${node.condition} from ${node.at.toISOString()}; ${peer}'s pods on it (${pods.join(', ')}) stopped answering from ${downAt.toISOString()}; ${failing}`,
            mechanismRuns: [node.run.ordinal, down.ordinal, callsRun.ordinal],
            unexplained: [`why ${node.node} became ${node.condition}`],
            action: {
              title: `Recover or drain node ${node.node}`,
              rationale: `${peer}'s pods on it stopped answering when it became ${node.condition}`,
              verification: `kube_node_status_condition{node="${node.node}", condition="Ready", status="true"} is 1, ${peer} answers and the alert resolves`,
            },
          };
        }
      }
      return cause;
    }
    if (this.canRead(1)) {
      const saturated = await this.connectionsSaturated(peer, `Are the connections of ${peer} exhausted?`);
      if (saturated) {
        return {
          ...base,
          id: 'h-connections',
          statement: `The connections of ${peer} reached their maximum (${saturated.what}) at ${saturated.at.toISOString()} and caused the alert's condition`,
          at: saturated.at,
          run: saturated.run,
          mechanism: `${saturated.what} reached ${round(saturated.reached * 100)}% of the connection limit at ${saturated.at.toISOString()}; ${failing}`,
          mechanismRuns: [saturated.run.ordinal, callsRun.ordinal],
          chainRuns: [...base.chainRuns, saturated.run.ordinal],
          unexplained: [`what took the connections of ${peer} (the clients holding them are not in the metrics)`],
          action: {
            title: `Free connections on ${peer} (end the sessions that hold them) or raise its limit`,
            rationale: `Its connections were exhausted when ${caller}'s calls to it began to fail`,
            verification: `Connections to ${peer} fall below ${SATURATED_SHARE * 100}% of the limit and the alert resolves`,
          },
        };
      }
    }
    return base;
  }

  /**
   * Connections against the maximum: postgres_exporter (pg_stat_activity_count over
   * pg_settings_max_connections), mysqld_exporter, and a client's own HikariCP pool. The series
   * that names `name` (or the only one saturated) is the one meant.
   */
  private async connectionsSaturated(name: string, purpose: string): Promise<{ run: RecordedRun; at: Timestamp; reached: number; what: string } | null> {
    const run = await this.read(
      [
        'sum by (job, instance, server) (pg_stat_activity_count) / on (job, instance, server) max by (job, instance, server) (pg_settings_max_connections)',
        'max by (job, instance) (mysql_global_status_threads_connected) / on (job, instance) max by (job, instance) (mysql_global_variables_max_connections)',
        'max by (job, instance, pool) (hikaricp_connections_active / hikaricp_connections_max)',
      ].join(' or '),
      purpose,
    );
    const saturated = seriesOf(run)
      .map((s) => ({ s, at: pointsOf(s).find((p) => p.v >= SATURATED_SHARE)?.t ?? null }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => this.near(x.at) && (firstSampleAt(x.s) ? pointsOf(x.s)[0].v < SATURATED_SHARE : false));
    const named = saturated.filter((x) => mentionedBy(x.s.metric, name));
    const pick = named[0] ?? (saturated.length === 1 ? saturated[0] : undefined);
    if (!pick) return null;
    const m = pick.s.metric;
    const what = m.pool ? `pool ${m.pool} of ${m.job ?? m.instance}` : `${m.server ?? m.instance ?? name}`;
    return { run, at: pick.at, reached: Math.max(...pointsOf(pick.s).map((p) => p.v)), what };
  }

  /** The alerting service's own connection pool (HikariCP) at its maximum. */
  private async ownPool(): Promise<DetectedCause | null> {
    const job = this.scope.job!;
    const run = await this.read(
      `max by (job, pool) (hikaricp_connections_active{job=${quote(job)}} / hikaricp_connections_max{job=${quote(job)}})`,
      `Was the connection pool of ${job} exhausted?`,
    );
    const ratio = seriesOf(run).find((s) => pointsOf(s).some((p) => p.v >= SATURATED_SHARE));
    const at = ratio ? (pointsOf(ratio).find((p) => p.v >= SATURATED_SHARE)?.t ?? null) : null;
    if (!ratio || !this.near(at) || pointsOf(ratio)[0].v >= SATURATED_SHARE) return null;
    const pool = ratio.metric.pool ?? 'its pool';
    return {
      id: 'h-pool',
      statement: `The connection pool ${pool} of ${job} was exhausted from ${at.toISOString()} and caused the alert's condition`,
      at,
      run,
      mechanism: `Active connections of ${pool} reached ${SATURATED_SHARE * 100}% or more of its maximum at ${at.toISOString()}`,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`what held the connections of ${pool} (slow queries or a leak are not in the metrics)`],
      action: {
        title: `Find what holds the connections of ${pool}, or enlarge it`,
        rationale: 'The pool was exhausted just before the condition began',
        verification: `hikaricp_connections_active of ${pool} stays below its maximum and the alert resolves`,
      },
    };
  }

  /**
   * A peer that answers slowly: client-side p99 by peer jumped near the onset. When the peer is a
   * service with client metrics of its own, its own slow peer is asked about in turn (a chain of
   * calls), up to two hops.
   */
  private async slowPeer(job: string, hop: number, chain: string[] = []): Promise<DetectedCause | null> {
    const run = await this.read(
      `histogram_quantile(0.99, sum by (le, ${PEER_LABELS.join(', ')}) (rate({__name__=~"${CLIENT_HISTOGRAMS}", job=${quote(job)}}[1m])))`,
      `Did a dependency of ${job} begin to answer slowly near the onset?`,
    );
    const slow = seriesOf(run)
      .map((s) => ({ s, peer: peerOf(s.metric), jump: jumpOf(s, PEER_SLOWDOWN, 0.005) }))
      .filter((x): x is { s: SeriesOut; peer: string; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.peer && !!x.jump && this.near(x.jump.at))
      .sort((a, b) => b.jump.reached / Math.max(b.jump.usual, 1e-9) - a.jump.reached / Math.max(a.jump.usual, 1e-9))[0];
    if (!slow) return null;
    const step = `${job}'s calls to ${slow.peer} slowed at ${slow.jump.at.toISOString()} (p99 ${round(slow.jump.usual)} s to ${round(slow.jump.reached)} s)`;
    const path = [...chain, step];
    if (hop < 2 && this.canRead(2)) {
      const deeper = await this.slowPeer(slow.peer, hop + 1, path);
      if (deeper) {
        deeper.mechanismRuns.push(run.ordinal);
        return deeper;
      }
    }
    return {
      id: 'h-slow-dependency',
      statement: `${slow.peer} answered slowly from ${slow.jump.at.toISOString()}${chain.length ? ` (called through ${[job].join(', ')})` : ''} and caused the alert's condition`,
      at: slow.jump.at,
      run,
      mechanism: path.join('; '),
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`why ${slow.peer} answered slowly (its own saturation or dependencies are not in the metrics)`],
      action: {
        title: `Find why ${slow.peer} slowed down, or shed or time out calls to it`,
        rationale: `Calls to ${slow.peer} slowed just before the condition began`,
        verification: `The p99 of calls to ${slow.peer} returns to ${round(slow.jump.usual)} s and the alert resolves`,
      },
    };
  }

  // ---------------------------------------------------------------- traffic

  /**
   * A surge of traffic on a route of the alerting service (the common HTTP server counters by
   * route): its request rate at twice its usual level or more near the onset. The mechanism is
   * the service's CPU rising with it (process CPU, or cAdvisor's for its pods): more requests
   * than it could serve.
   */
  private async surge(): Promise<DetectedCause | null> {
    const job = this.scope.job!;
    const run = await this.read(
      `sum by (job, route, handler, path, uri, method) (rate({__name__=~"${REQUEST_COUNTERS}", job=${quote(job)}}[1m]))`,
      `Did traffic on a route of ${job} surge near the onset?`,
    );
    const surge = seriesOf(run)
      .map((s) => ({ s, jump: jumpOf(s, SURGE_RATIO, SURGE_MIN_RPS) }))
      .filter((x): x is { s: SeriesOut; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.jump && this.near(x.jump.at))
      .sort((a, b) => b.jump.reached - b.jump.usual - (a.jump.reached - a.jump.usual))[0];
    if (!surge) return null;
    const m = surge.s.metric;
    const route = m.route ?? m.handler ?? m.path ?? m.uri;
    const what = `${route ? `${m.method ? `${m.method} ` : ''}${route}` : 'all routes'} of ${job}`;
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
    if (!this.canRead(1)) return cause;
    const cpu = await this.read(
      `sum(rate(process_cpu_seconds_total{job=${quote(job)}}[1m]))${this.scope.pods ? ` or sum(rate(container_cpu_usage_seconds_total{${this.scope.pods}, container!=""}[1m]))` : ''}`,
      `Did the CPU of ${job} rise with the surge?`,
    );
    cause.chainRuns.push(cpu.ordinal);
    const busier = seriesOf(cpu)
      .map((s) => jumpOf(s, 1.5, 0))
      .find((j) => !!j && !j.at.isBefore(shift(surge.jump.at, -MINUTE)) && this.near(j.at));
    if (busier) {
      cause.mechanism = `${rose}; the CPU of ${job} rose from ${round(busier.usual)} to ${round(busier.reached)} cores from ${busier.at.toISOString()}`;
      cause.mechanismRuns = [cpu.ordinal, run.ordinal];
    } else {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `The CPU of ${job} did not visibly rise with the surge on ${what}, so how the surge produced the condition is not shown`,
        runRefs: [cpu.ordinal],
        messageSequences: [],
      });
    }
    return cause;
  }

  // ---------------------------------------------------------------- nodes and volumes

  /**
   * The nodes of pods (kube_pod_info) and whether one of them was not Ready or under memory, disk
   * or PID pressure near the onset (kube_node_status_condition).
   */
  private async nodeTrouble(
    podMatchers: string,
    who: string,
  ): Promise<{ node: string; condition: string; at: Timestamp; run: RecordedRun; runs: number[]; nodes: string[] } | null> {
    const info = await this.read(`max by (node, host_ip, pod) (kube_pod_info{${podMatchers}})`, `Which nodes ran ${who}?`, -20, 2, 60);
    const nodes = [
      ...new Set(
        seriesOf(info)
          .map((s) => s.metric.node)
          .filter((n): n is string => !!n),
      ),
    ];
    if (!nodes.length || !this.canRead(1)) return null;
    const run = await this.read(
      `kube_node_status_condition{node=~${anyOf(nodes)}, condition="Ready", status="true"} == 0 or kube_node_status_condition{node=~${anyOf(nodes)}, condition=~"MemoryPressure|DiskPressure|PIDPressure", status="true"} == 1`,
      `Was a node of ${who} not ready or under pressure?`,
    );
    const hit = seriesOf(run)
      .map((s) => ({ s, at: this.began(s, run) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => this.near(x.at) && x.at.isAfter(this.session.window.from))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
    if (!hit) return null;
    const condition = hit.s.metric.condition === 'Ready' ? 'NotReady' : `under ${hit.s.metric.condition}`;
    return { node: hit.s.metric.node, condition, at: hit.at, run, runs: [info.ordinal, run.ordinal], nodes };
  }

  /**
   * The alerting workload's pods → their nodes: a node not ready or under pressure, or a
   * filesystem of the node or a volume of the pods full, near the onset; with the workload's
   * failures from the pods on that node as the mechanism. The same query reads how busy the
   * nodes' CPU was and which pods' CPU use burst, for the noisy neighbours (see neighbours).
   */
  private async nodesAndVolumes(): Promise<DetectedCause[]> {
    const pods = this.scope.pods;
    const who = this.scope.workload ?? 'the alerting pods';
    const info = await this.read(`max by (node, host_ip, pod, namespace) (kube_pod_info{${pods}})`, `Which nodes ran ${who}?`, -20, 2, 60);
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
    // Without kube-state-metrics' pod info the pods cannot be placed on nodes: nothing to read further.
    if (!nodes.length || !this.canRead(1)) return [];
    // node-exporter names its node with a `node` label (kube-prometheus relabels), or its instance is the node or its host IP.
    const instance = `instance=~${JSON.stringify([...nodes.map((n) => `${escape(n)}(:[0-9]+)?`), ...hosts.map((h) => `${escape(h)}:[0-9]+`)].join('|'))}`;
    const fs = 'fstype!~"tmpfs|overlay|squashfs|nsfs|ramfs"';
    const conditionOrFull = await this.read(
      [
        `kube_node_status_condition{node=~${anyOf(nodes)}, condition="Ready", status="true"} == 0`,
        `kube_node_status_condition{node=~${anyOf(nodes)}, condition=~"MemoryPressure|DiskPressure|PIDPressure", status="true"} == 1`,
        `node_filesystem_avail_bytes{${fs}, node=~${anyOf(nodes)}} < ${FULL_BYTES}`,
        `node_filesystem_avail_bytes{${fs}, ${instance}} < ${FULL_BYTES}`,
        `(kubelet_volume_stats_available_bytes < ${FULL_BYTES}) and on (namespace, persistentvolumeclaim) kube_pod_spec_volumes_persistentvolumeclaims_info{${pods}}`,
        // How busy each node's CPU was, and the pods whose CPU use burst (or that started using much), with their nodes.
        `1 - avg by (node, instance) (rate(node_cpu_seconds_total{mode="idle"}[1m]))`,
        `${BURSTING_PODS} * on (namespace, pod) group_left (node, host_ip) max by (namespace, pod, node, host_ip) (kube_pod_info)`,
      ].join(' or '),
      `Was a node of ${who} not ready or under pressure, a filesystem or volume of it full, or its CPU taken by another pod?`,
    );
    const neighbours = (): Promise<DetectedCause[]> => this.neighbours(conditionOrFull, info, nodes);
    const hits = seriesOf(conditionOrFull)
      .map((s) => ({ s, at: this.began(s, conditionOrFull) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => this.near(x.at) && x.at.isAfter(shift(this.session.window.from, MINUTE)))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1));
    const full = hits.find((x) => x.s.metric.mountpoint !== undefined || x.s.metric.persistentvolumeclaim !== undefined);
    const node = hits.find((x) => x.s.metric.condition !== undefined);
    const pick = full ?? node;
    if (!pick) return neighbours();
    const m = pick.s.metric;
    const nodeName =
      m.node ?? nodes.find((n) => m.instance?.startsWith(n)) ?? nodes[hosts.findIndex((h) => m.instance?.startsWith(`${h}:`))] ?? m.instance ?? 'its node';
    // The mechanism: the workload's failures (or lost scrapes) come from its pods on that node.
    // The mechanism: the workload's failures come from its pods on that node (or using that volume);
    // for a node lost, its pods that stopped answering scrapes count too.
    const job = this.scope.job;
    const errors = job ? `sum by (pod) (rate({__name__=~"${REQUEST_COUNTERS}", job=${quote(job)}, code=~"5.."}[1m])) > 0` : '';
    const where = m.persistentvolumeclaim
      ? `kube_pod_spec_volumes_persistentvolumeclaims_info{persistentvolumeclaim=${quote(m.persistentvolumeclaim)}}`
      : `kube_pod_info{node=${quote(nodeName)}}`;
    const mechanism =
      job && this.canRead(1)
        ? await this.read(
            `(${full ? errors : `${errors} or up{job=${quote(job)}} == 0`}) and on (pod) ${where}`,
            `Do ${who}'s failures come from its pods ${m.persistentvolumeclaim ? `using ${m.persistentvolumeclaim}` : `on ${nodeName}`}?`,
          )
        : undefined;
    const onNode = seriesOf(mechanism).filter((s) => (s.values?.length ?? 0) > 0);
    const mechanismRuns = onNode.length ? [mechanism!.ordinal] : [];
    const chainRuns = [info.ordinal, ...(mechanism ? [mechanism.ordinal] : [])];
    if (mechanism && !onNode.length)
      this.limitations.push({
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
  }

  // ---------------------------------------------------------------- noisy neighbours

  /**
   * Noisy neighbours, from the nodes query of nodesAndVolumes: a pod of another workload whose CPU
   * use burst near the onset, on a node where the alert's pods run and whose CPU ran out (busy
   * NODE_SATURATED of the time or more, and not before). The mechanism is tested by the alert's
   * condition read by pod with the pods' nodes: the pods on that node show it, the pods on other
   * nodes do not (a cause inside the workload would show on all of them). A burst on a node where
   * none of the alert's pods run, on a node with CPU to spare, or while the workload's pods
   * elsewhere show the condition too, is stated and ruled out with the run that shows it.
   */
  private async neighbours(run: RecordedRun, info: RecordedRun, nodes: string[]): Promise<DetectedCause[]> {
    const who = this.scope.workload ?? 'the alerting pods';
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
      if (own.has(pod) || (this.scope.workload && workloadOfPod(pod) === this.scope.workload)) continue;
      const at = this.began(s, run);
      if (!this.near(at)) continue;
      const reached = Math.max(...pointsOf(s).map((p) => p.v));
      const best = bursts.get(s.metric.node);
      if (!best || reached > best.reached) bursts.set(s.metric.node, { pod, namespace: s.metric.namespace, at, reached });
    }
    if (!bursts.size) return [];
    const latency = this.scope.latency;
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
      const upToOnset = points.filter((p) => !p.t.isAfter(shift(this.scope.onset, MINUTE)));
      const saturated = upToOnset.find((p) => p.v >= NODE_SATURATED);
      if (upToOnset.length && !saturated) {
        out.push(
          refute(`${node} had CPU to spare: it was at most ${round(Math.max(...upToOnset.map((p) => p.v)) * 100)}% busy up to the onset`, [run.ordinal]),
        );
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
      const job = this.scope.job;
      if (!byPod && job && this.canRead(1)) {
        const onNodes = `* on (pod) group_left (node) max by (pod, node) (kube_pod_info${this.scope.namespace ? `{namespace=${quote(this.scope.namespace)}}` : ''})`;
        byPod = await this.read(
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
      const from = shift(this.scope.onset, -2n * MINUTE);
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

  // ---------------------------------------------------------------- CPU throttling

  /**
   * CPU throttling of the alerting workload's containers (cAdvisor's CFS periods): the share of
   * throttled periods jumped near the onset. Why: a lower CPU limit (kube-state-metrics'
   * resource limits of the pods), or more demand.
   */
  private async throttling(): Promise<DetectedCause | null> {
    const pods = this.scope.pods;
    const who = this.scope.workload ?? 'the alerting pods';
    const run = await this.read(
      `max(sum by (namespace, pod) (increase(container_cpu_cfs_throttled_periods_total{${pods}, container!=""}[2m])) / sum by (namespace, pod) (increase(container_cpu_cfs_periods_total{${pods}, container!=""}[2m])))`,
      `Were the containers of ${who} throttled on CPU near the onset?`,
      -25,
      2,
    );
    const series = seriesOf(run)[0];
    const jump = series ? jumpOf(series, 4, THROTTLED_SHARE) : null;
    if (!jump || !this.near(jump.at)) return null;
    const throttled = `The containers of ${who} were throttled in ${round(jump.reached * 100)}% of their CPU periods from ${jump.at.toISOString()} (usually ${round(jump.usual * 100)}%)`;
    const cause: DetectedCause = {
      id: 'h-throttling',
      statement: `CPU throttling of ${who} from ${jump.at.toISOString()} caused the alert's condition`,
      at: jump.at,
      run,
      mechanism: throttled,
      mechanismRuns: [run.ordinal],
      chainRuns: [],
      unexplained: [`why ${who} was throttled (its CPU limit did not change; more demand or a new version remain)`],
      action: {
        title: `Raise the CPU limit of ${who} or reduce its demand`,
        rationale: 'Its containers were throttled just before the condition began',
        verification: `The share of throttled CFS periods of ${who} falls back to ${round(jump.usual * 100)}% and the alert resolves`,
      },
    };
    if (!this.canRead(1)) return cause;
    const limits = await this.read(
      `min(kube_pod_container_resource_limits{${pods}, resource="cpu"}) or min(container_spec_cpu_quota{${pods}, container!=""}) / 100000`,
      `Was the CPU limit of ${who} lowered?`,
      -30,
      2,
      30,
    );
    cause.chainRuns.push(limits.ordinal);
    const points = seriesOf(limits).flatMap(pointsOf);
    const before = points.find((p) => p.t.isBefore(shift(jump.at, -5n * MINUTE)))?.v;
    const lowered = before !== undefined ? points.find((p) => p.v < before * 0.8 && !p.t.isAfter(jump.at)) : undefined;
    if (before === undefined || !lowered) return cause;
    return {
      ...cause,
      id: 'h-cpu-limit',
      statement: `The CPU limit of ${who}, lowered from ${round(before)} to ${round(lowered.v)} cores at ${lowered.t.toISOString()}, throttled its containers and caused the alert's condition`,
      at: lowered.t,
      run: limits,
      mechanism: `The CPU limit of ${who} went from ${round(before)} to ${round(lowered.v)} cores at ${lowered.t.toISOString()}; ${throttled}`,
      mechanismRuns: [limits.ordinal, run.ordinal],
      unexplained: [],
      action: {
        title: `Restore the CPU limit of ${who} (${round(before)} cores)`,
        rationale: `It was lowered to ${round(lowered.v)} cores and the containers were throttled from then on`,
        verification: `container_cpu_cfs_throttled_periods_total of ${who} grows at its usual rate and the alert resolves`,
      },
    };
  }

  // ---------------------------------------------------------------- liveness probes

  /**
   * Containers of the alerting workload restarted by the kubelet after failing liveness probes
   * (kubelet's `prober_probe_total{probe_type="Liveness"}` from /metrics/probes, and
   * kube-state-metrics' restart count, in one query: the restarts must follow the failures). Then
   * why the probe failed: a cause already found on the same workload from before the failures (a
   * slow or failing dependency, CPU throttling, a noisy neighbour, an exhausted pool) continues the
   * chain and takes the restarts into it; without one, when the alert names no service, the
   * workload's own calls are read for a slow dependency. Otherwise the probe's own cause is unknown.
   */
  private async livenessRestarts(found: DetectedCause[]): Promise<DetectedCause | null> {
    const pods = this.scope.pods;
    const who = this.scope.workload ?? 'the alerting pods';
    const run = await this.read(
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
      if (first < 0 || (first === 0 && !this.began(failed, run))) continue;
      const failedAt = points[first].t;
      if (!this.near(failedAt)) continue;
      const restartAt = restartsOf(failed.metric.pod, failed.metric.container)
        .flatMap(pointsOf)
        .filter((p) => p.v > 0 && !p.t.isBefore(failedAt) && p.t.epochMicros - failedAt.epochMicros <= 10n * MINUTE)
        .map((p) => p.t)
        .sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
      if (restartAt) restarted.push({ pod: failed.metric.pod, failedAt, restartAt });
    }
    const failedPods = new Set(series.filter((s) => s.metric.result === 'failed' && pointsOf(s).some((p) => p.v > 0)).map((s) => s.metric.pod));
    for (const s of series.filter((x) => x.metric.result === 'successful' && !failedPods.has(x.metric.pod))) this.livenessPassed.set(s.metric.pod, run.ordinal);
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
    let root = found.find(explains);
    if (root) found.splice(found.indexOf(root), 1);
    else if (!this.scope.job && this.scope.workload && this.canRead(2)) {
      // An alert on pods names no service: the workload's own calls (its job is usually named after it).
      const slow = await this.slowPeer(this.scope.workload, 1);
      if (slow && explains(slow)) root = slow;
      else cause.chainRuns.push(...(slow ? [slow.run.ordinal] : this.session.runs.slice(-1).map((r) => r.ordinal)));
    }
    if (!root) return cause;
    return {
      ...root,
      id: 'h-liveness',
      statement: `${root.statement.replace(" and caused the alert's condition", '').replace(" caused the alert's condition", '')}, which failed the liveness probes of ${who} from ${at.toISOString()} and got its containers restarted, caused the alert's condition`,
      mechanism: `${root.mechanism}; ${failing}`,
      // The probe query tested the last step; the root's own mechanism must have been tested too.
      mechanismRuns: root.mechanismRuns.length ? [...root.mechanismRuns, run.ordinal] : [],
      chainRuns: [...root.chainRuns, run.ordinal],
      restartedPods: podNames,
    };
  }

  // ---------------------------------------------------------------- crash loops

  /**
   * Containers of the alerting workload in CrashLoopBackOff near the onset; why they stop (their
   * last termination reason): out of memory (the working set at the limit, and the limit
   * lowered), or an error after a configuration change (the Deployment's generation, and a
   * ConfigMap or Secret edited just before it).
   */
  private async crashLoop(): Promise<DetectedCause | null> {
    const pods = this.scope.pods;
    const run = await this.read(
      `max by (namespace, pod, container) (kube_pod_container_status_waiting_reason{${pods}, reason="CrashLoopBackOff"}) == 1`,
      'Did containers of the alerting workload crash loop near the onset?',
      -30,
      2,
    );
    const looping = seriesOf(run)
      .map((s) => ({ s, at: this.began(s, run) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => this.near(x.at) && x.at.isAfter(shift(this.session.window.from, MINUTE)))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1));
    if (!looping.length || !this.canRead(1)) return null;
    const first = looping[0];
    const namespace = first.s.metric.namespace;
    const podNames = [...new Set(looping.map((x) => x.s.metric.pod))];
    const deployment = workloadOfPod(first.s.metric.pod);
    const ns = namespace ? `namespace=${quote(namespace)}, ` : '';
    const reasons = await this.read(
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
    if (!this.canRead(1)) return base;
    if (reason === 'OOMKilled') return this.outOfMemory(base, namespace, podNames, deployment, first.at);
    // A change of the Deployment's spec (its generation) and the ConfigMaps and Secrets of the namespace.
    const changes = await this.read(
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
    if (!rollout) return base;
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
  }

  /** Crash loops from out-of-memory kills: the working set at the limit, and whether the limit was lowered. */
  private async outOfMemory(
    base: DetectedCause,
    namespace: string | undefined,
    podNames: string[],
    deployment: string,
    loopAt: Timestamp,
  ): Promise<DetectedCause> {
    const ns = namespace ? `namespace=${quote(namespace)}, ` : '';
    const memory = await this.read(
      `max by (pod, container) (container_memory_working_set_bytes{${ns}pod=~${anyOf(podNames)}, container!=""} / on (namespace, pod, container) (container_spec_memory_limit_bytes{${ns}pod=~${anyOf(podNames)}, container!=""} > 0)) >= ${AT_MEMORY_LIMIT}`,
      `Did the containers of ${deployment} reach their memory limit?`,
      -30,
      2,
    );
    const atLimit = earliest(seriesOf(memory).map(firstSampleAt));
    const oom: DetectedCause = {
      ...base,
      id: 'h-oom',
      statement: `Out-of-memory kills (OOMKilled) of ${deployment}'s containers, crash looping from ${loopAt.toISOString()}, caused the alert's condition`,
      mechanism: `${base.mechanism}${atLimit ? `; their working set reached ${AT_MEMORY_LIMIT * 100}% of the memory limit from ${atLimit.toISOString()}` : ''}`,
      mechanismRuns: atLimit ? [memory.ordinal, base.chainRuns[0]] : [],
      chainRuns: [...base.chainRuns, memory.ordinal],
      unexplained: [`why the memory of ${deployment} outgrew its limit (its limit did not change)`],
      action: {
        title: `Raise the memory limit of ${deployment}, or find what made its memory grow`,
        rationale: 'Its containers are OOM-killed',
        verification: `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} of ${deployment} stays absent and the alert resolves`,
      },
    };
    if (!atLimit)
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `The working set of ${deployment}'s containers was not seen at ${AT_MEMORY_LIMIT * 100}% of their memory limit (a scrape can miss the seconds before a kill), so the out-of-memory kills are not verified by their memory`,
        runRefs: [memory.ordinal],
        messageSequences: [],
      });
    if (!this.canRead(1)) return oom;
    const deploymentPods = `${ns}pod=~${JSON.stringify(`${escape(deployment)}-.+`)}`;
    const limits = await this.read(
      `min by (pod) (kube_pod_container_resource_limits{${deploymentPods}, resource="memory"})`,
      `Was the memory limit of ${deployment} lowered?`,
      -40,
      2,
      30,
    );
    oom.chainRuns.push(limits.ordinal);
    // New pods with a lower limit than the pods they replaced.
    const byPod = seriesOf(limits).map((s) => ({ pod: s.metric.pod, at: firstSampleAt(s), limit: pointsOf(s)[0]?.v }));
    const crashing = byPod.filter((p) => podNames.includes(p.pod) && p.limit !== undefined);
    const older = byPod.filter((p) => !podNames.includes(p.pod) && p.limit !== undefined && p.at && crashing.some((c) => c.at && p.at!.isBefore(c.at)));
    const lowered = crashing.find((c) => older.some((o) => o.limit! > c.limit! * 1.2));
    if (!lowered || !lowered.at) return oom;
    const was = Math.max(...older.map((o) => o.limit!));
    const rolledAt = earliest(crashing.map((c) => c.at));
    return {
      ...oom,
      id: 'h-memory-limit',
      statement: `The memory limit of ${deployment}, lowered from ${bytes(was)} to ${bytes(lowered.limit!)} by the rollout at ${rolledAt!.toISOString()}, got its containers OOMKilled and caused the alert's condition`,
      at: rolledAt!,
      run: limits,
      mechanism: `New pods of ${deployment} started at ${rolledAt!.toISOString()} with a memory limit of ${bytes(lowered.limit!)} (the pods they replaced had ${bytes(was)}); ${oom.mechanism}`,
      mechanismRuns: atLimit ? [limits.ordinal, memory.ordinal, base.chainRuns[0]] : [],
      unexplained: [],
      action: {
        title: `Restore the memory limit of ${deployment} (${bytes(was)})`,
        rationale: `The rollout lowered it to ${bytes(lowered.limit!)} and the new containers are OOM-killed`,
        verification: `kube_pod_container_status_last_terminated_reason{reason="OOMKilled"} of ${deployment} stays absent and the alert resolves`,
      },
    };
  }

  // ---------------------------------------------------------------- queues

  /**
   * A queue named by the alert whose consumers went to zero near the onset (RabbitMQ's exporters),
   * and the workload scaled to zero just before (kube-state-metrics' spec replicas).
   */
  private async consumersGone(queue: string): Promise<DetectedCause | null> {
    const run = await this.read(
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
    if (!this.near(goneAt)) return null;
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
    if (!this.canRead(1)) return cause;
    const ns = this.scope.namespace ? `{namespace=${quote(this.scope.namespace)}}` : '';
    const replicas = await this.read(
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
  }
}
