import type { LimitationItem } from '../../conclusion.types';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { connectionPoolExplainer } from './connection-pool';
import { ExplainerContext } from './context';
import { cpuThrottlingExplainer } from './cpu-throttling';
import { crashLoopExplainer } from './crash-loop';
import { dependencyExplainer } from './dependency';
import type { DetectedCause, DetectionScope, Explainer } from './explainer';
import { livenessExplainer } from './liveness';
import { nodeAndVolumesExplainer } from './node-and-volumes';
import { queueConsumersExplainer } from './queue-consumers';
import { trafficSurgeExplainer } from './traffic-surge';

/**
 * The explainers over the standard exporters (kube-state-metrics, node-exporter, cAdvisor,
 * blackbox, postgres and queue exporters, client-side HTTP and gRPC metrics), in order of how
 * directly they read the alert's entity: its queue, its pods' containers, its calls to peers, its
 * own pool, its traffic, its pods' nodes and volumes, its CPU. Liveness restarts come last: a
 * probe that failed asks why among the causes found before.
 */
export const EXPLAINERS: readonly Explainer[] = [
  queueConsumersExplainer,
  crashLoopExplainer,
  dependencyExplainer,
  connectionPoolExplainer,
  trafficSurgeExplainer,
  nodeAndVolumesExplainer,
  cpuThrottlingExplainer,
  livenessExplainer,
];

/** What the explainers found near the onset, and what they tell the reasoner besides. */
export interface ExplainedCauses {
  causes: DetectedCause[];
  limitations: LimitationItem[];
  /** Pods whose liveness probes were read and passed near the onset, with the run that read them. */
  livenessPassed: Map<string, number>;
}

/**
 * Runs every explainer that applies to the alert, in order, while the tool-run budget leaves the
 * runs reserved for testing the hypotheses, two more, and one per cause found and not refuted.
 * Each finds and dates causes near the onset on the alert's entity or its relations (pod → node,
 * caller → peer), and asks why they happened in turn.
 */
export async function explainCauses(
  session: InvestigationSession,
  source: SourceBrief,
  scope: DetectionScope,
  explainers: readonly Explainer[] = EXPLAINERS,
): Promise<ExplainedCauses> {
  const ctx = new ExplainerContext(session, source, scope);
  const found: DetectedCause[] = [];
  for (const explainer of explainers.filter((e) => e.appliesTo(scope))) {
    if (!ctx.canRead(2 + found.filter((c) => !c.refuted).length)) break;
    const explained = await explainer.explain(ctx, found);
    if (!explained) continue;
    if (Array.isArray(explained)) found.push(...explained);
    else if ('replaces' in explained) {
      const replaced = found.indexOf(explained.replaces);
      if (replaced >= 0) found.splice(replaced, 1);
      found.push(explained.cause);
    } else found.push(explained);
  }
  return { causes: found, limitations: ctx.limitations, livenessPassed: ctx.livenessPassed };
}
