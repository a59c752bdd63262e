import { alertmanagerAlertsTool } from './alertmanager/alertmanager-alerts.tool';
import { alertmanagerSilencesTool } from './alertmanager/alertmanager-silences.tool';
import { prometheusAlertRulesTool } from './prometheus/prometheus-alert-rules.tool';
import { prometheusLabelValuesTool } from './prometheus/prometheus-label-values.tool';
import { prometheusMetadataTool } from './prometheus/prometheus-metadata.tool';
import { prometheusQueryRangeTool } from './prometheus/prometheus-query-range.tool';
import { prometheusQueryTool } from './prometheus/prometheus-query.tool';
import { prometheusSeriesTool } from './prometheus/prometheus-series.tool';
import { prometheusTargetsTool } from './prometheus/prometheus-targets.tool';
import { MYSQL_TOOLS } from './mysql/mysql.tools';
import { POSTGRESQL_TOOLS } from './postgresql/postgresql.tools';
import { RABBITMQ_TOOLS } from './rabbitmq/rabbitmq.tools';
import { REDIS_TOOLS } from './redis/redis.tools';
import { LOKI_TOOLS } from './loki/loki.tools';
import { KUBERNETES_TOOLS } from './kubernetes/kubernetes.tools';
import type { ToolDefinition } from './tool.types';

/** Every tool of this release, in the order a reasoner is shown them. */
export const INVESTIGATION_TOOLS: ReadonlyArray<ToolDefinition> = [
  prometheusQueryTool,
  prometheusQueryRangeTool,
  prometheusSeriesTool,
  prometheusLabelValuesTool,
  prometheusMetadataTool,
  prometheusAlertRulesTool,
  prometheusTargetsTool,
  alertmanagerAlertsTool,
  alertmanagerSilencesTool,
  ...POSTGRESQL_TOOLS,
  ...MYSQL_TOOLS,
  ...REDIS_TOOLS,
  ...RABBITMQ_TOOLS,
  ...LOKI_TOOLS,
  ...KUBERNETES_TOOLS,
];
