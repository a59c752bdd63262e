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
import type { ConditionKnown, DetectedCause, DetectionScope, Explainer, WhyAnswer } from './explainer';
import { livenessExplainer } from './liveness';
import { kubernetesPodsExplainer } from './kubernetes-pods';
import { kubernetesRolloutExplainer } from './kubernetes-rollout';
import { logTemplatesExplainer } from './log-templates';
import { newVersionExplainer } from './new-version';
import { nodeAndVolumesExplainer } from './node-and-volumes';
import { processCpuExplainer } from './process-cpu';
import { queueConsumersExplainer } from './queue-consumers';
import { restartExplainer } from './restart';
import { targetDownExplainer } from './target-down';
import { trafficSurgeExplainer } from './traffic-surge';

/**
 * The changes near the onset on the alerting service itself: a new version (the change people
 * made, which ends a causal chain; in the metrics, else a rollout in the Kubernetes API), then the proximate events whose causes the other families
 * may be (a restart, a scrape target down, a process' CPU saturation). The built-in reasoner reads
 * them first, before the changes tools reported; each asks why once its cause passes the test.
 */
export const CHANGE_EXPLAINERS: readonly Explainer[] = [
  newVersionExplainer,
  kubernetesRolloutExplainer,
  restartExplainer,
  targetDownExplainer,
  processCpuExplainer,
];

/**
 * The explainers over the standard exporters (kube-state-metrics, node-exporter, cAdvisor,
 * blackbox, postgres and queue exporters, client-side HTTP and gRPC metrics), in order of how
 * directly they read the alert's entity: its queue (in the exporters' series, then in the broker), its pods' containers (in the exporters' series, then in the Kubernetes API), its calls to peers, the
 * locks of the datastores it uses (read in the datastore itself), its own pool, its traffic, its pods' nodes and volumes, its CPU. Liveness restarts come next: a
 * probe that failed asks why among the causes found before. The changes on the alerting service
 * (CHANGE_EXPLAINERS) frame them: a new version first, the proximate events last, so that a
 * restart a failing probe explains is not stated again.
 */
export const CAUSE_EXPLAINERS: readonly Explainer[] = [
  queueConsumersExplainer,
  brokerQueuesExplainer,
  crashLoopExplainer,
  kubernetesPodsExplainer,
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
 * The explainers of a log store's lines (where one is connected): the built-in reasoner reads them
 * once the metrics left the condition unexplained, since a caller's errors often report a
 * dependency the metrics place more precisely.
 */
export const LOG_EXPLAINERS: readonly Explainer[] = [logTemplatesExplainer];

/** Every family, in the order one pass reads them (see CAUSE_EXPLAINERS). */
export const EXPLAINERS: readonly Explainer[] = [
  newVersionExplainer,
  kubernetesRolloutExplainer,
  ...CAUSE_EXPLAINERS,
  ...LOG_EXPLAINERS,
  ...CHANGE_EXPLAINERS.filter((e) => e !== newVersionExplainer && e !== kubernetesRolloutExplainer),
];

/**
 * The explainers of an investigation with no Prometheus to read: those above that read a datastore
 * or a broker with its own tools, in the same order, with the families read only there (the
 * exporters' series cover them where Prometheus is read): MySQL's connections, and Redis' memory,
 * clients and stalls. (Logs are read where Prometheus dates the onset; the conclusion without it
 * speaks of datastores.)
 */
export const DATASTORE_EXPLAINERS: readonly Explainer[] = [
  ...CAUSE_EXPLAINERS.filter((e) => e.reads.length === 0 && e !== kubernetesPodsExplainer).flatMap((e) =>
    e === datastoreConnectionsExplainer ? [e, mysqlConnectionsExplainer] : [e],
  ),
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
  /**
   * Asks why a cause found here happened, through the family that found it (see Explainer.askWhy):
   * null when its family asks nothing further.
   */
  askWhy(cause: DetectedCause, condition: ConditionKnown): Promise<WhyAnswer | null>;
}

/** How a pass of the explainers runs. */
export interface ExplainOptions {
  /**
   * `now` (the default) asks why each cause found happened as soon as it is found, while the budget
   * allows; `later` leaves it to the caller, once the cause passes its test (see ExplainedCauses.askWhy).
   */
  askWhy?: 'now' | 'later';
  /**
   * Whether the runs reserved for testing the hypotheses are kept (the default): the changes on the
   * alerting service, read first, are what the tests test, and are read whatever the budget.
   */
  reserve?: boolean;
  /**
   * Runs kept for what follows the pass (RESERVED_RUNS by default, for testing the hypotheses):
   * the detectors keep the logs' reads too, the logs' own pass only its test.
   */
  reserved?: number;
}

/** A cause restated by the answer to why it happened, with the runs that showed it. */
export function restate(cause: DetectedCause, answer: WhyAnswer): DetectedCause {
  return {
    ...cause,
    ...answer.restated,
    mechanismRuns: [...new Set([...cause.mechanismRuns, ...answer.mechanismRuns])],
    chainRuns: [...new Set([...cause.chainRuns, ...answer.runs.filter((r) => !answer.mechanismRuns.includes(r))])],
  };
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
  options: ExplainOptions = {},
): Promise<ExplainedCauses> {
  const applicable = explainers.filter((e) => e.appliesTo(scope) && (source !== null || e.reads.length === 0));
  const reads = explainersReads(applicable);
  const collected = presence ?? (reads.length && source ? await MetricPresence.read(session, source, reads) : MetricPresence.UNKNOWN);
  const ctx = new ExplainerContext(session, source, scope, collected, options.reserved);
  // An explainer that reads no metric (it reads a datastore) is never left out for want of series;
  // one whose absence says something of its own says it (see Explainer.unseen).
  const looksFor = (e: Explainer) => e.reads.length === 0 || collected.has(e.reads);
  for (const e of applicable.filter((e) => !looksFor(e) && e.unseen)) e.unseen!(ctx);
  const notLookedFor = applicable.filter((e) => !looksFor(e) && !e.unseen).map((e) => e.name);
  const found: DetectedCause[] = [];
  const familyOf = new Map<DetectedCause, Explainer>();
  for (const explainer of applicable.filter(looksFor)) {
    if (options.reserve !== false && !ctx.canRead(2 + found.filter((c) => !c.refuted).length)) break;
    const explained = await explainer.explain(ctx, found);
    if (!explained) continue;
    for (const item of Array.isArray(explained) ? explained : [explained]) {
      const cause = 'replaces' in item ? item.cause : item;
      if ('replaces' in item) {
        const replaced = found.indexOf(item.replaces);
        if (replaced >= 0) found.splice(replaced, 1);
      }
      found.push(cause);
      familyOf.set(cause, explainer);
    }
  }
  const askWhy = async (cause: DetectedCause, condition: ConditionKnown): Promise<WhyAnswer | null> => {
    const family = familyOf.get(cause);
    return family?.askWhy ? family.askWhy(ctx, cause, condition) : null;
  };
  // Asked at once, the answer restates the cause found (an out-of-memory kill for a restart).
  if ((options.askWhy ?? 'now') === 'now') {
    for (const [i, cause] of found.entries()) {
      if (cause.refuted || !familyOf.get(cause)?.askWhy || !ctx.canRead(2)) continue;
      const answer = await askWhy(cause, {
        expression: scope.expression ?? null,
        labels: scope.labels,
        onset: scope.onset,
        hypothesisRuns: [cause.run.ordinal],
        livenessPassed: ctx.livenessPassed,
      });
      if (!answer) continue;
      ctx.limitations.push(...answer.limitations);
      found[i] = restate(cause, answer);
    }
  }
  notLookedFor.push(...ctx.notLookedFor);
  // Stated first, as before anything the explainers found.
  const limitation = presence ? null : collected.notLookedFor(notLookedFor);
  if (limitation) ctx.limitations.unshift(limitation);
  return { causes: found, limitations: ctx.limitations, livenessPassed: ctx.livenessPassed, notLookedFor, seen: ctx.seen, askWhy };
}
