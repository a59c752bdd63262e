import { Timestamp } from '@svc/platform';
import type { SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import { alertServicesOf, eachDatastore } from './datastores-serving';
import type { DetectedCause, Explainer } from './explainer';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- postgresql.connections' output, shaped by its read

/** Connections in use from which a database counts as exhausted: no slot left, or this share of those ordinary users may take. */
const EXHAUSTED_SHARE = 0.9;
/** The application holding at least this share of the connections is the one that took them. */
const HOLDER_SHARE = 0.5;

/**
 * A PostgreSQL database that serves the alerting service with its connections exhausted, read in
 * the database itself: the application holding most of them (at least half), dated by when it
 * opened its last one (the database filled up then, at the latest). The mechanism is verified
 * when that application is not the alerting service: its connections left none for the service.
 */
async function connectionsCause(ctx: ExplainerContext, source: SourceBrief): Promise<DetectedCause | null> {
  const run = await ctx.session.runTool({
    tool: 'postgresql.connections',
    integrationId: source.integrationId,
    arguments: {},
    purpose: `Were the connections of ${source.name} exhausted, and by whom?`,
  });
  const output = run.outcome === 'succeeded' ? (run.output as Row) : null;
  if (!output) return null;
  const ordinary = output.maxConnections - output.reservedForSuperusers;
  if (!(output.slotsLeft <= 0 || output.clientConnections >= ordinary * EXHAUSTED_SHARE)) return null;
  const holder = (output.openedByApplication as Row[])[0];
  if (!holder || holder.count < output.clientConnections * HOLDER_SHARE) {
    ctx.saw(source, `${output.clientConnections} of max_connections ${output.maxConnections} in use, no application holding half of them`);
    return null;
  }
  const at = Timestamp.parse(holder.lastConnectedAt);
  if (!ctx.near(at)) {
    ctx.saw(
      source,
      `${holder.application} held ${holder.count} of the ${output.clientConnections} connections in use, the last opened at ${holder.lastConnectedAt}, not near the onset`,
    );
    return null;
  }
  const services = alertServicesOf(ctx.scope);
  const alertingOwn = services.some((s) => String(holder.application).toLowerCase().includes(s));
  const share = `${holder.count} of the ${output.clientConnections} connections in use (max_connections ${output.maxConnections}, ${output.slotsLeft} left)`;
  return {
    id: `h-connections-${source.integrationId.slice(-6)}`,
    statement: `${holder.application} took ${share} of ${source.name}, the last at ${at.toISOString()}, and caused the alert's condition`,
    at,
    run,
    mechanism: `PostgreSQL showed ${holder.application} holding ${share}, opened from ${holder.firstConnectedAt} to ${holder.lastConnectedAt}`,
    mechanismRuns: alertingOwn ? [] : [run.ordinal],
    chainRuns: [],
    unexplained: [
      ...(alertingOwn ? [`why ${holder.application}, the alerting service itself, opened so many connections`] : []),
      `why ${holder.application} opened ${holder.count} connections`,
    ],
    action: {
      title: `Bound the connections of ${holder.application} to ${source.name} (its pool size or a role CONNECTION LIMIT), and end the idle ones`,
      rationale: `It held most of the database's connections from just before the condition began`,
      verification: 'postgresql.connections shows slots left and the alert resolves',
    },
  };
}

/** Connections exhausted in the PostgreSQL databases that serve the alerting service, and by whom. */
export const datastoreConnectionsExplainer: Explainer = {
  name: 'datastore connections',
  // Read in the database, not in Prometheus: no metric has to exist.
  reads: [],
  appliesTo: () => true,
  async explain(ctx, found) {
    return eachDatastore(ctx, found, ['postgresql'], (source) => connectionsCause(ctx, source));
  },
};

/**
 * A MySQL or MariaDB server that serves the alerting service with its connections exhausted (no
 * slot left, or EXHAUSTED_SHARE of max_connections taken), read in the server itself: the program
 * (by the name it announces, else the user) holding at least HOLDER_SHARE of them. MySQL keeps no
 * connection start: it is dated by when all of the holder's connections were open at the latest
 * (the read less the shortest time one of them had spent in its current command), which comes
 * after the last one opened. The mechanism is verified when the holder is not the alerting
 * service, as for PostgreSQL.
 */
async function mysqlConnectionsCause(ctx: ExplainerContext, source: SourceBrief): Promise<DetectedCause | null> {
  const run = await ctx.session.runTool({
    tool: 'mysql.connections',
    integrationId: source.integrationId,
    arguments: {},
    purpose: `Were the connections of ${source.name} exhausted, and by whom?`,
  });
  const output = run.outcome === 'succeeded' ? (run.output as Row) : null;
  if (!output) return null;
  if (!(output.slotsLeft <= 0 || output.clientConnections >= output.maxConnections * EXHAUSTED_SHARE)) return null;
  const holder = ((output.heldBy as Row[] | undefined) ?? [])[0];
  if (!holder || holder.count < output.clientConnections * HOLDER_SHARE) {
    ctx.saw(source, `${output.clientConnections} of max_connections ${output.maxConnections} in use, no program or user holding half of them`);
    return null;
  }
  const who = holder.holderKind === 'user' ? `user ${holder.holder}` : String(holder.holder);
  const at = Timestamp.parse(holder.allOpenBy);
  if (!ctx.near(at)) {
    ctx.saw(source, `${who} held ${holder.count} of the ${output.clientConnections} connections in use, all open by ${holder.allOpenBy}, not near the onset`);
    return null;
  }
  const services = alertServicesOf(ctx.scope);
  const alertingOwn = services.some((s) => String(holder.holder).toLowerCase().includes(s));
  const share = `${holder.count} of the ${output.clientConnections} connections in use (max_connections ${output.maxConnections}, ${output.slotsLeft} left)`;
  const refused = [
    ...(output.refusedAtMaxConnections ? [`${output.refusedAtMaxConnections} connection(s) refused with every slot taken`] : []),
    ...(output.abortedConnects ? [`${output.abortedConnects} failed connection attempt(s)`] : []),
  ];
  return {
    id: `h-connections-${source.integrationId.slice(-6)}`,
    statement: `${who} took ${share} of ${source.name}, all open by ${at.toISOString()}, and caused the alert's condition`,
    at,
    run,
    mechanism:
      `MySQL showed ${who} holding ${share}, all of them open by ${at.toISOString()} (MySQL keeps no connection start: the read less the shortest time one of them had spent in its current command)` +
      `${refused.length ? `; since the server started, ${refused.join(' and ')}` : ''}`,
    mechanismRuns: alertingOwn ? [] : [run.ordinal],
    chainRuns: [],
    unexplained: [
      ...(alertingOwn ? [`why ${who}, the alerting service itself, opened so many connections`] : []),
      `why ${who} opened ${holder.count} connections`,
    ],
    action: {
      title: `Bound the connections of ${who} to ${source.name} (its pool size, or its account's MAX_USER_CONNECTIONS), and end the idle ones`,
      rationale: `It held most of the server's connections from just before the condition began`,
      verification: 'mysql.connections shows slots left and the alert resolves',
    },
  };
}

/**
 * Connections exhausted in the MySQL and MariaDB servers that serve the alerting service, and by
 * whom. Not among the explainers of an investigation that reads Prometheus (the exporters' series
 * show exhausted connections there); it runs where no Prometheus is connected.
 */
export const mysqlConnectionsExplainer: Explainer = {
  name: 'MySQL connections',
  // Read in the server, not in Prometheus: no metric has to exist.
  reads: [],
  appliesTo: () => true,
  async explain(ctx, found) {
    return eachDatastore(ctx, found, ['mysql'], (source) => mysqlConnectionsCause(ctx, source));
  },
};
