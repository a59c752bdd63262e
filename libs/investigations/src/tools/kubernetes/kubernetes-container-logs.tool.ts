import { isKubernetesApiException, kubernetesStatus } from '@svc/platform';
import { count } from '../series-name';
import type { ToolDefinition } from '../tool.types';
import { checkNamespace, NAME_PATTERN, NAMESPACE_ARGUMENT, withKubernetes } from './kubernetes-api';

export type KubernetesContainerLogsArguments = { namespace: string; pod: string; container?: string; previous?: boolean; tailLines?: number };

export const DEFAULT_TAIL_LINES = 100;
export const MAX_TAIL_LINES = 500;
/**
 * Bytes the API server is asked for at most (`limitBytes`, which cuts the end of the tail it
 * selected), and bytes of lines kept (the last ones).
 */
export const LOG_LIMIT_BYTES = 1024 * 1024;
export const MAX_KEPT_BYTES = 32 * 1024;
/** Characters kept of one line, the rest marked. */
export const MAX_LINE = 1000;

/**
 * What the API server answers (400, a `Status` with reason BadRequest) when a container has no
 * previous instance to read: `previous terminated container "app" in pod "web-1" not found`. That
 * is a finding (the container never restarted, or its previous instance was removed), not a failure.
 */
const NO_PREVIOUS = /^previous terminated container "([^"]+)" in pod "([^"]+)" not found$/;

export const kubernetesContainerLogsTool: ToolDefinition<KubernetesContainerLogsArguments> = {
  name: 'kubernetes.container_logs',
  integrationType: 'kubernetes',
  description:
    "Reads the last lines of a container's log from the Kubernetes API (pods/log): the running container's, or with previous=true the previous instance's, " +
    'the one that crashed or was killed before the last restart (its last lines usually say why). ' +
    `At most tailLines lines (default ${DEFAULT_TAIL_LINES}, at most ${MAX_TAIL_LINES}), the last ${MAX_KEPT_BYTES / 1024} KiB of them kept, lines cut at ${MAX_LINE} characters. ` +
    'Name the container when the pod has several. A container that never restarted has no previous log: the output says so.',
  argumentsSchema: {
    type: 'object',
    properties: {
      namespace: NAMESPACE_ARGUMENT,
      pod: { type: 'string', pattern: NAME_PATTERN, maxLength: 253, description: 'The pod' },
      container: {
        type: 'string',
        pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        maxLength: 63,
        description: 'The container (required when the pod has several)',
      },
      previous: { type: 'boolean', description: "The previous (terminated) instance's log instead of the running one's" },
      tailLines: { type: 'integer', minimum: 1, maximum: MAX_TAIL_LINES, description: `The last lines (default ${DEFAULT_TAIL_LINES})` },
    },
    required: ['namespace', 'pod'],
    additionalProperties: false,
  },
  async run(args, context) {
    checkNamespace(context, args.namespace);
    const tailLines = args.tailLines ?? DEFAULT_TAIL_LINES;
    const previous = args.previous === true;
    const which = `${previous ? 'previous ' : ''}log of ${args.container ? `container ${args.container} of ` : ''}pod ${args.namespace}/${args.pod}`;
    return withKubernetes(context, async (session) => {
      let text: string;
      try {
        text = await session.apis.core.readNamespacedPodLog({
          namespace: args.namespace,
          name: args.pod,
          ...(args.container ? { container: args.container } : {}),
          ...(previous ? { previous: true } : {}),
          tailLines,
          limitBytes: LOG_LIMIT_BYTES,
        });
      } catch (error) {
        const status = isKubernetesApiException(error) && error.code === 400 ? kubernetesStatus(error.body) : undefined;
        const none = status && NO_PREVIOUS.exec(status.message);
        if (!none) throw error;
        return {
          outcome: 'succeeded' as const,
          summary: `Container ${none[1]} of pod ${args.namespace}/${none[2]} has no previous instance: it has not restarted (or its previous instance is gone), so there is no earlier log to read.`,
          output: { namespace: args.namespace, pod: args.pod, container: none[1], previous: true, previousInstance: false, message: status.message, lines: [] },
          truncated: false,
          sources: [...session.sources],
        };
      }
      const all = text.split('\n');
      if (all[all.length - 1] === '') all.pop();
      // The server stops at limitBytes: then the newest lines were not sent, and the output says so.
      const cutAtEnd = Buffer.byteLength(text) >= LOG_LIMIT_BYTES;
      const marked = all.map((line) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… [${line.length - MAX_LINE} more characters]` : line));
      const lines: string[] = [];
      let size = 0;
      for (let i = marked.length - 1; i >= 0; i--) {
        size += Buffer.byteLength(marked[i]) + 1;
        if (size > MAX_KEPT_BYTES) break;
        lines.unshift(marked[i]);
      }
      const dropped = marked.length - lines.length;
      const last = lines[lines.length - 1];
      return {
        outcome: 'succeeded' as const,
        summary:
          (lines.length
            ? `${count(lines.length, 'line')} of the ${which}${dropped ? ` (the last ${MAX_KEPT_BYTES / 1024} KiB of ${marked.length} lines)` : ''}; the last: ${last.length > 200 ? `${last.slice(0, 200)}…` : last}`
            : `The ${which} is empty.`) +
          (cutAtEnd ? ` The API server stopped at ${LOG_LIMIT_BYTES / 1024 / 1024} MiB: ask for fewer tailLines to read the newest lines.` : ''),
        output: {
          namespace: args.namespace,
          pod: args.pod,
          ...(args.container ? { container: args.container } : {}),
          previous,
          tailLines,
          ...(dropped ? { dropped } : {}),
          ...(cutAtEnd ? { cutAtEnd: true } : {}),
          lines,
        },
        truncated: false,
        sources: [...session.sources],
      };
    });
  },
};
