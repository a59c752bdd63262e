import type { ToolDefinition } from '../tool.types';
import { kubernetesContainerLogsTool } from './kubernetes-container-logs.tool';
import { kubernetesEventsTool } from './kubernetes-events.tool';
import { kubernetesNodeTool } from './kubernetes-node.tool';
import { kubernetesPodStatusTool } from './kubernetes-pod-status.tool';
import { kubernetesRolloutHistoryTool } from './kubernetes-rollout-history.tool';

export { kubernetesContainerLogsTool, kubernetesEventsTool, kubernetesNodeTool, kubernetesPodStatusTool, kubernetesRolloutHistoryTool };
export { parseQuantity } from './kubernetes-node.tool';

/** The Kubernetes tools, in the order a reasoner is shown them: what happened, the pods' states, their logs, what rolled out, the node. */
export const KUBERNETES_TOOLS: ReadonlyArray<ToolDefinition> = [
  kubernetesEventsTool,
  kubernetesPodStatusTool,
  kubernetesContainerLogsTool,
  kubernetesRolloutHistoryTool,
  kubernetesNodeTool,
] as ReadonlyArray<ToolDefinition>;
