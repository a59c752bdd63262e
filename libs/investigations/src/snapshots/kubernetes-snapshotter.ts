import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { IncidentsService } from '@svc/incidents';
import { IntegrationsService, ReadableDataSource } from '@svc/integrations';
import { PeriodicSweep, Timestamp } from '@svc/platform';
import { ToolCatalog } from '../tools/tool-catalog';
import type { ToolWindow } from '../tools/tool.types';
import type { SnapshotRun } from './kubernetes-snapshot.entity';
import { KubernetesSnapshotsRepository } from './kubernetes-snapshots.repository';

/** How often the worker looks for incidents opened since its last look. */
const SWEEP_EVERY_MS = 5_000;
/** Incidents the service opened this recently are snapshotted (later, their events may be gone). */
const RECENT_SECONDS = 15 * 60;
/** …whose first alert began at most this long before (the index on the alert's time bounds the read). */
const ALERTS_WITHIN_SECONDS = 24 * 3600;
/** A claim older than this that never finished is a worker that died: another takes it over. */
const STALE_SECONDS = 120;
/** Incidents of one Organization snapshotted by one sweep, at most. */
const PER_SWEEP = 20;
/** Workloads or pods of an incident read, at most (each costs two or three reads). */
const MAX_TARGETS = 3;
/** Pods of a workload whose events are read, at most. */
const MAX_PODS = 2;
/** How far back the reads look. */
const LOOK_BACK_SECONDS = 3600;

/** Labels that name a pod, a namespace, and the workload an alert is about, as exporters and rules write them. */
const NAMESPACE_LABELS = ['namespace', 'kubernetes_namespace', 'k8s_namespace_name', 'exported_namespace'];
const POD_LABELS = ['pod', 'kubernetes_pod_name', 'k8s_pod_name', 'pod_name'];
const WORKLOAD_LABELS = ['deployment', 'k8s_deployment_name', 'service', 'app', 'app_kubernetes_io_name', 'service_name', 'job'];

/** A pod or a workload (a Deployment) an incident's alerts name. */
interface Target {
  namespace: string;
  pod?: string;
  workload?: string;
}

const first = (labels: Record<string, string>, names: string[]): string | undefined => names.map((n) => labels[n]).find((v) => !!v);

/** The pods and workloads the alerts name, each once, in the alerts' order. */
export function snapshotTargets(alerts: Array<Record<string, string>>): Target[] {
  const targets = new Map<string, Target>();
  for (const labels of alerts) {
    const namespace = first(labels, NAMESPACE_LABELS);
    if (!namespace) continue;
    const pod = first(labels, POD_LABELS);
    const workload = pod ? undefined : first(labels, WORKLOAD_LABELS);
    if (!pod && !workload) continue;
    const target: Target = pod ? { namespace, pod } : { namespace, workload };
    targets.set(JSON.stringify(target), target);
  }
  return [...targets.values()].slice(0, MAX_TARGETS);
}

/**
 * When an incident opens, reads what the Kubernetes API shows of the pods and workloads its
 * alerts name (their namespace and pod, or their workload as a Deployment): the pods' states, and
 * the events of the pods (with their ReplicaSet and Deployment), which the cluster keeps for about
 * an hour only. Once per incident, by whichever worker claims it first; stored with the incident,
 * read by its investigations as a run of their own (incident.kubernetes_snapshot) and by the API.
 */
@Injectable()
export class KubernetesSnapshotter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(KubernetesSnapshotter.name);
  private readonly every = new PeriodicSweep({
    everyMs: SWEEP_EVERY_MS,
    sweep: () => this.sweep(),
    logger: this.logger,
    failure: 'Taking the Kubernetes snapshots of new incidents failed; the next sweep tries again',
  });
  /** Aborts the reads in flight when the worker stops (the incident's claim is taken over later). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly integrations: IntegrationsService,
    private readonly incidents: IncidentsService,
    private readonly snapshots: KubernetesSnapshotsRepository,
    private readonly catalog: ToolCatalog,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    return this.every.stop();
  }

  /** One look at every Organization with a Kubernetes integration: the snapshots it took. */
  async sweep(): Promise<number> {
    let taken = 0;
    for (const organizationId of await this.integrations.organizationsWithAcrossOrganizations('kubernetes')) {
      if (this.stopping.signal.aborted) break;
      const now = Timestamp.now();
      const recent = await this.incidents.openedSince(organizationId, now.plusSeconds(-RECENT_SECONDS), ALERTS_WITHIN_SECONDS, PER_SWEEP);
      if (!recent.length) continue;
      const claimed = await this.snapshots.claimedAmong(
        organizationId,
        recent.map((i) => i.id),
        now,
        STALE_SECONDS,
      );
      const unclaimed = recent.filter((i) => !claimed.has(i.id));
      // The Organization's clusters, read once for its incidents.
      const clusters = unclaimed.length ? (await this.integrations.readableDataSources(organizationId)).filter((s) => s.type === 'kubernetes') : [];
      for (const incident of unclaimed) {
        if (this.stopping.signal.aborted) break;
        if (!(await this.snapshots.claim(organizationId, incident.id, Timestamp.now(), STALE_SECONDS))) continue;
        await this.take(organizationId, incident.id, clusters);
        taken += 1;
      }
    }
    if (taken) this.logger.log({ taken }, 'Took the Kubernetes snapshots of new incidents');
    return taken;
  }

  private async take(organizationId: string, incidentId: string, clusters: ReadableDataSource[]): Promise<void> {
    const targets = snapshotTargets(await this.incidents.alertLabels(organizationId, incidentId));
    const now = Timestamp.now();
    const window: ToolWindow = { from: now.plusSeconds(-LOOK_BACK_SECONDS), until: now };
    const runs: SnapshotRun[] = [];
    for (const target of targets) {
      // The first cluster that may read the namespace.
      const cluster = clusters.find((c) => !c.namespaces || c.namespaces.includes(target.namespace));
      if (!cluster) continue;
      const who = target.pod ? `pod ${target.pod}` : `${target.workload}`;
      const pods = await this.read(runs, cluster, window, 'kubernetes.pod_status', {
        arguments: target.pod
          ? { namespace: target.namespace, pod: target.pod }
          : { namespace: target.namespace, workload: { kind: 'Deployment', name: target.workload } },
        purpose: `The state of the pods of ${who} in ${target.namespace} when the incident opened`,
      });
      const named = target.pod ? [target.pod] : podsOf(pods).slice(0, MAX_PODS);
      for (const pod of named)
        await this.read(runs, cluster, window, 'kubernetes.events', {
          arguments: { namespace: target.namespace, kind: 'Pod', name: pod },
          purpose: `The events of pod ${pod} and its owners when the incident opened (the cluster keeps them for about an hour)`,
        });
      if (!named.length && target.workload)
        await this.read(runs, cluster, window, 'kubernetes.events', {
          arguments: { namespace: target.namespace, kind: 'Deployment', name: target.workload },
          purpose: `The events of ${target.workload} when the incident opened (the cluster keeps them for about an hour)`,
        });
    }
    // Stopped midway: the claim goes stale and another worker takes the snapshot whole.
    if (this.stopping.signal.aborted) return;
    await this.snapshots.save(organizationId, incidentId, runs, Timestamp.now());
  }

  /** One read, recorded as the snapshot's next run (a failure is recorded too: it says what could not be seen). */
  private async read(
    runs: SnapshotRun[],
    cluster: ReadableDataSource,
    window: ToolWindow,
    tool: string,
    call: { arguments: Record<string, unknown>; purpose: string },
  ): Promise<unknown> {
    const startedAt = new Date().toISOString();
    const result = await this.catalog.run(tool, call.arguments, { connection: cluster, window, signal: this.stopping.signal });
    runs.push({
      tool,
      integrationId: cluster.integrationId,
      arguments: call.arguments,
      purpose: call.purpose,
      outcome: result.outcome,
      summary: result.summary ?? null,
      output: result.output ?? null,
      truncated: result.truncated,
      sources: result.sources,
      error: result.error ?? null,
      startedAt,
      finishedAt: new Date().toISOString(),
    });
    return result.outcome === 'succeeded' ? result.output : null;
  }
}

/** The names of the pods a pod_status run listed, those that restarted most first. */
function podsOf(output: unknown): string[] {
  const pods = (output as { pods?: Array<{ name?: unknown; restarts?: unknown }> } | null)?.pods;
  if (!Array.isArray(pods)) return [];
  const restarts = (p: { restarts?: unknown }) => (typeof p.restarts === 'number' ? p.restarts : 0);
  return [...pods]
    .sort((a, b) => restarts(b) - restarts(a))
    .map((p) => p.name)
    .filter((n): n is string => typeof n === 'string');
}
