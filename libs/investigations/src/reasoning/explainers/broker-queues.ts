import { Timestamp } from '@svc/platform';
import type { RecordedRun, SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import { alertServicesOf, eachDatastore } from './datastores-serving';
import type { DetectedCause, DetectionScope, Explainer } from './explainer';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- rabbitmq.queues' and rabbitmq.connections' output, shaped by their reads

/** The queue an alert names (its `queue` or `topic` label). */
const queueOf = (scope: DetectionScope): string | undefined => scope.labels.queue ?? scope.labels.topic;

/**
 * The queue without consumers that the alert is about: the one it names; or the one named after
 * the alerting service, else the first (deepest) whose name contains it; or the only one there is.
 */
function unconsumedQueue(queues: Row[], scope: DetectionScope): Row | undefined {
  const unconsumed = queues.filter((q) => q.messages > 0 && q.consumers === 0);
  const named = queueOf(scope);
  if (named) return unconsumed.find((q) => q.name === named);
  const services = alertServicesOf(scope);
  const exact = unconsumed.find((q) => services.includes(String(q.name).toLowerCase()));
  if (exact) return exact;
  const theirs = unconsumed.filter((q) => services.some((s) => String(q.name).toLowerCase().includes(s)));
  if (theirs.length) return theirs[0];
  return unconsumed.length === 1 ? unconsumed[0] : undefined;
}

/**
 * When the queue's messages began to wait, read at `now`: its oldest message's publish time when
 * publishers set timestamps; otherwise the depth over the publish rate (every message published
 * since stayed), an estimate.
 */
function waitingSince(queue: Row, now: Timestamp): { at: Timestamp; how: string } | null {
  if (typeof queue.oldestMessageSeconds === 'number')
    return { at: now.plusSeconds(-queue.oldestMessageSeconds), how: `its oldest message was published ${queue.oldestMessageSeconds} s before the read` };
  if (typeof queue.publishRate === 'number' && queue.publishRate > 0) {
    const seconds = Math.round(queue.messages / queue.publishRate);
    return { at: now.plusSeconds(-seconds), how: `${queue.messages} messages at ${queue.publishRate}/s published take ${seconds} s to pile up` };
  }
  return null;
}

/**
 * A RabbitMQ queue of the alerting service holding messages with no consumer, read in the broker
 * (management API), dated by when its messages began to wait; then the connections open now,
 * by the name applications give them, for who is still there to consume.
 */
async function queueCause(ctx: ExplainerContext, source: SourceBrief): Promise<DetectedCause | null> {
  const named = queueOf(ctx.scope);
  const run: RecordedRun = await ctx.session.runTool({
    tool: 'rabbitmq.queues',
    integrationId: source.integrationId,
    arguments: named ? { name: named } : {},
    purpose: `Does a queue of ${ctx.who} in ${source.name} hold messages that nothing consumes, and from when?`,
  });
  const read = Timestamp.now();
  const output = run.outcome === 'succeeded' ? (run.output as Row) : null;
  const queue = output ? unconsumedQueue(output.queues as Row[], ctx.scope) : undefined;
  if (!queue) return null;
  const since = waitingSince(queue, read);
  if (!since || !ctx.near(since.at)) {
    ctx.saw(
      source,
      `queue ${queue.name} held ${queue.messages} messages and no consumer, ${since ? `waiting from ${since.at.toISOString()}, not near the onset` : 'undated (no timestamp, no publish rate)'}`,
    );
    return null;
  }

  const cause: DetectedCause = {
    id: `h-broker-queue-${source.integrationId.slice(-6)}`,
    statement: `Queue ${queue.name} (${queue.vhost}) in ${source.name} lost its consumers and its messages waited from ${since.at.toISOString()}, and caused the alert's condition`,
    at: since.at,
    run,
    mechanism:
      `RabbitMQ showed ${queue.messages} messages in ${queue.name} (${queue.ready} ready) and no consumer` +
      `${queue.publishRate ? `, published at ${queue.publishRate}/s` : ''}; ${since.how}`,
    mechanismRuns: [run.ordinal],
    chainRuns: [],
    unexplained: [`why the consumers of ${queue.name} went away`],
    action: {
      title: `Bring the consumers of ${queue.name} back (start or reconnect the application that consumes it)`,
      rationale: `Its messages have waited without a consumer since just before the condition began`,
      verification: `rabbitmq.queues shows consumers on ${queue.name}, its depth falling, and the alert resolves`,
    },
  };
  if (!ctx.canRead(1)) return cause;
  const connections = await ctx.session.runTool({
    tool: 'rabbitmq.connections',
    integrationId: source.integrationId,
    arguments: queue.vhost ? { vhost: queue.vhost } : {},
    purpose: `Which applications are still connected to ${queue.vhost ?? source.name}, now that ${queue.name} has no consumer?`,
  });
  if (connections.outcome !== 'succeeded') return cause;
  cause.chainRuns.push(connections.ordinal);
  const byName = ((connections.output as Row).byConnectionName as Row[]) ?? [];
  const open = byName.map((g) => `${g.connectionName} (${g.connections})`).join(', ');
  cause.mechanism += open ? `; the connections open now: ${open}` : '; no application is connected to it now';
  return cause;
}

/** Queues of the alerting service without consumers in the RabbitMQ brokers that serve it, read in the broker. */
export const brokerQueuesExplainer: Explainer = {
  name: 'broker queues without consumers',
  // Read in the broker's management API, not in Prometheus: no exporter has to run.
  reads: [],
  appliesTo: () => true,
  async explain(ctx, found) {
    // The consumers' metrics already told (the queue consumers explainer).
    if (found.some((c) => c.id === 'h-consumers' || c.id === 'h-scaled-to-zero')) return null;
    return eachDatastore(ctx, found, ['rabbitmq'], (source) => queueCause(ctx, source));
  },
};
