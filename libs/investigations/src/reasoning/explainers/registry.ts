import type { LimitationItem } from '../../conclusion.types';
import { MetricPresence } from '../discovery/metric-presence';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { connectionPoolExplainer } from './connection-pool';
import { brokerQueuesExplainer } from './broker-queues';
import { ExplainerContext } from './context';
import { cpuThrottlingExplainer } from './cpu-throttling';
import { crashLoopExplainer } from './crash-loop';
import { datastoreConnectionsExplainer, mysqlConnectionsExplainer } from './datastore-connections';
import { datastoreLocksExplainer } from './datastore-locks';
import { redisExplainer } from './datastore-redis';
import { dependencyExplainer } from './dependency';
import type { DetectedCause, DetectionScope, Explainer } from './explainer';
import { livenessExplainer } from './liveness';
import { nodeAndVolumesExplainer } from './node-and-volumes';
import { queueConsumersExplainer } from './queue-consumers';
import { trafficSurgeExplainer } from './traffic-surge';

/**
 * The explainers over the standard exporters (kube-state-metrics, node-exporter, cAdvisor,
 * blackbox, postgres and queue exporters, client-side HTTP and gRPC metrics), in order of how
 * directly they read the alert's entity: its queue (in the exporters' series, then in the broker), its pods' containers, its calls to peers, the
 * locks of the datastores it uses (read in the datastore itself), its own pool, its traffic, its pods' nodes and volumes, its CPU. Liveness restarts come last: a
 * probe that failed asks why among the causes found before.
 */
export const EXPLAINERS: readonly Explainer[] = [
  queueConsumersExplainer,
  brokerQueuesExplainer,
  crashLoopExplainer,
  dependencyExplainer,
  datastoreLocksExplainer,
  datastoreConnectionsExplainer,
  connectionPoolExplainer,
  trafficSurgeExplainer,
  nodeAndVolumesExplainer,
  cpuThrottlingExplainer,
  livenessExplainer,
];

/**
 * The explainers of an investigation with no Prometheus to read: those above that read no metric
 * (they read datastores and brokers with their own tools), in the same order, with the families
 * read only there (the exporters' series cover them where Prometheus is read): MySQL's
 * connections, and Redis' memory, clients and stalls.
 */
export const DATASTORE_EXPLAINERS: readonly Explainer[] = [
  ...EXPLAINERS.filter((e) => e.reads.length === 0).flatMap((e) => (e === datastoreConnectionsExplainer ? [e, mysqlConnectionsExplainer] : [e])),
  redisExplainer,
];

/** What the explainers found near the onset, and what they tell the reasoner besides. */
export interface ExplainedCauses {
  causes: DetectedCause[];
  limitations: LimitationItem[];
  /** Pods whose liveness probes were read and passed near the onset, with the run that read them. */
  livenessPassed: Map<string, number>;
  /** The families left out because none of the metrics they read has series in the window. */
  notLookedFor: string[];
  /** What datastores' reads showed that was no cause, by integration id (see ExplainerContext.seen). */
  seen: Map<string, string[]>;
}

/** Every metric the explainers' first reads need (see Explainer.reads). */
export const explainersReads = (explainers: readonly Explainer[] = EXPLAINERS): string[] => [...new Set(explainers.flatMap((e) => e.reads))];

/**
 * Runs every explainer that applies to the alert and whose metrics are collected, in order, while
 * the tool-run budget leaves the runs reserved for testing the hypotheses, two more, and one per
 * cause found and not refuted. Each finds and dates causes near the onset on the alert's entity or
 * its relations (pod → node, caller → peer), and asks why they happened in turn. Which metrics
 * are collected is read first (one run) unless `presence` tells; the families left out for want of
 * series are returned, and stated as a limitation when this read them (a caller that passes
 * `presence` states them with its own). Without a Prometheus `source`, only the explainers that
 * read no metric run (those reading datastores and brokers with their own tools).
 */
export async function explainCauses(
  session: InvestigationSession,
  source: SourceBrief | null,
  scope: DetectionScope,
  explainers: readonly Explainer[] = EXPLAINERS,
  presence?: MetricPresence,
): Promise<ExplainedCauses> {
  const ctx = new ExplainerContext(session, source, scope);
  const applicable = explainers.filter((e) => e.appliesTo(scope) && (source !== null || e.reads.length === 0));
  const reads = explainersReads(applicable);
  const collected = presence ?? (reads.length && source ? await MetricPresence.read(session, source, reads) : MetricPresence.UNKNOWN);
  // An explainer that reads no metric (it reads a datastore) is never left out for want of series.
  const looksFor = (e: Explainer) => e.reads.length === 0 || collected.has(e.reads);
  const notLookedFor = applicable.filter((e) => !looksFor(e)).map((e) => e.name);
  const limitation = presence ? null : collected.notLookedFor(notLookedFor);
  if (limitation) ctx.limitations.push(limitation);
  const found: DetectedCause[] = [];
  for (const explainer of applicable.filter(looksFor)) {
    if (!ctx.canRead(2 + found.filter((c) => !c.refuted).length)) break;
    const explained = await explainer.explain(ctx, found);
    if (!explained) continue;
    for (const item of Array.isArray(explained) ? explained : [explained]) {
      if (!('replaces' in item)) {
        found.push(item);
        continue;
      }
      const replaced = found.indexOf(item.replaces);
      if (replaced >= 0) found.splice(replaced, 1);
      found.push(item.cause);
    }
  }
  return { causes: found, limitations: ctx.limitations, livenessPassed: ctx.livenessPassed, notLookedFor, seen: ctx.seen };
}
