import type { ToolDefinition } from '../tool.types';
import { lokiLabelsTool, lokiLabelValuesTool } from './loki-labels.tool';
import { lokiLogPatternsTool } from './loki-log-patterns.tool';
import { lokiQueryRangeTool } from './loki-query-range.tool';

export { lokiLabelsTool, lokiLabelValuesTool, lokiLogPatternsTool, lokiQueryRangeTool };
export { maskLine, TemplateMiner, templateText } from './log-templates';

/** The Loki tools, in the order a reasoner is shown them: what exists, then lines and counts, then templates. */
export const LOKI_TOOLS: ReadonlyArray<ToolDefinition> = [
  lokiLabelsTool,
  lokiLabelValuesTool,
  lokiQueryRangeTool,
  lokiLogPatternsTool,
] as ReadonlyArray<ToolDefinition>;
