export * from './investigation-engine.module';
export * from '../reasoning/language-model-reasoner';
// The deployment's language model, for other worker-side jobs that ask it (the postmortem narrative).
export { createLanguageModel, languageModelConnectionFrom } from '../reasoning/language-model-provider';
export type { LanguageModelConnection } from '../reasoning/language-model-provider';
// The reasoner every installation runs without a model, and the check every conclusion passes before it is stored.
export { BuiltInReasoner } from '../reasoning/built-in-reasoner';
export { checkConclusion } from './conclusion-check';
// The rule every stated number is held to: a cited run shows it (the conversation evaluation scores answers by it).
export { unshownNumbers } from '../reasoning/stated-numbers';
export { CHANGES_NEAR_ONSET_TOOL, runChangesNearOnsetTool } from './changes-near-onset.tool';
export type { ChangeReader } from './changes-near-onset.tool';
// The cause detectors and what they are given, for tests that run one against real systems.
export { DATASTORE_EXPLAINERS, explainCauses } from '../reasoning/explainers/registry';
export { redisExplainer } from '../reasoning/explainers/datastore-redis';
export { logTemplatesExplainer } from '../reasoning/explainers/log-templates';
export { kubernetesPodsExplainer } from '../reasoning/explainers/kubernetes-pods';
export { kubernetesRolloutExplainer } from '../reasoning/explainers/kubernetes-rollout';
export { datastoreLocksExplainer } from '../reasoning/explainers/datastore-locks';
export { dependencyExplainer } from '../reasoning/explainers/dependency';
export { brokerQueuesExplainer } from '../reasoning/explainers/broker-queues';
export { datastoreConnectionsExplainer, mysqlConnectionsExplainer } from '../reasoning/explainers/datastore-connections';
export { detectionScopeOf } from '../reasoning/explainers/labels';
export { MetricPresence } from '../reasoning/discovery/metric-presence';
export type { DetectedCause, Explainer } from '../reasoning/explainers/explainer';
