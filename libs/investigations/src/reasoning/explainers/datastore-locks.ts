import { Timestamp } from '@svc/platform';
import type { RecordedRun, SourceBrief } from '../reasoner';
import type { ExplainerContext } from './context';
import { alertServicesOf, eachDatastore } from './datastores-serving';
import type { DetectedCause, Explainer } from './explainer';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a lock tool's output, shaped by its read

/** The lock reads of each datastore kind, and how their rows name a session. */
const LOCK_READS: Record<string, { tool: string; product: string }> = {
  postgresql: { tool: 'postgresql.locks', product: 'PostgreSQL' },
  mysql: { tool: 'mysql.lock_waits', product: 'MySQL' },
};

/** The name a waiting or blocking session goes by: its application (PostgreSQL), program or user (MySQL). */
const nameOf = (row: Row): string => row.application || row.program || row.user || 'no application name';
const sessionOf = (row: Row): string => (row.pid !== undefined ? `pid ${row.pid}` : `thread ${row.thread}`);
const parse = (value: unknown): Timestamp | null => {
  if (typeof value !== 'string') return null;
  try {
    return Timestamp.parse(value);
  } catch {
    return null;
  }
};

/**
 * A transaction holding locks that the alerting service's sessions wait for, read in the
 * datastore itself (PostgreSQL's pg_blocking_pids, InnoDB's lock waits): the root blocker whose
 * transaction began near the onset (or, when it began earlier, whose waiters began waiting near
 * it). The mechanism is verified when the waiting sessions are the alerting service's (their
 * application, program or user names it); otherwise who waits is left unexplained.
 */
async function lockCause(ctx: ExplainerContext, source: SourceBrief): Promise<DetectedCause | null> {
  const read = LOCK_READS[source.type];
  const run: RecordedRun = await ctx.session.runTool({
    tool: read.tool,
    integrationId: source.integrationId,
    arguments: {},
    purpose: `Does a transaction in ${source.name} hold locks that ${ctx.who} waits for?`,
  });
  const output = run.outcome === 'succeeded' ? (run.output as Row) : null;
  const blocker = (output?.blockers as Row[] | undefined)?.[0];
  if (!blocker || !blocker.blocksSessions) return null;
  const waits = ((output!.waits as Row[]) ?? []).filter((w) => (w.rootBlockers as unknown[]).includes(blocker.pid ?? blocker.thread));
  const began = parse(blocker.transactionStart ?? blocker.transactionStarted);
  const firstWait = waits
    .map((w) => parse(w.waitStarted ?? w.queryStart))
    .filter((t): t is Timestamp => t !== null)
    .sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
  const at = ctx.near(began) ? began : ctx.near(firstWait ?? null) ? firstWait! : null;
  if (!at) {
    ctx.saw(
      source,
      `${sessionOf(blocker)} (${nameOf(blocker)}) blocked ${blocker.blocksSessions} session(s) in a transaction${began ? ` open from ${began.toISOString()}` : ''}, not near the onset`,
    );
    return null;
  }

  const waiting = [...new Set(waits.map(nameOf))];
  const services = alertServicesOf(ctx.scope);
  const theirs = waits.filter((w) => services.some((s) => nameOf(w).toLowerCase().includes(s)));
  const holder = `${sessionOf(blocker)} (${nameOf(blocker)}${blocker.user && blocker.user !== nameOf(blocker) ? `, user ${blocker.user}` : ''})`;
  const since = began ? ` from ${began.toISOString()}` : '';
  const what = blocker.query ? `; its last statement: ${String(blocker.query).slice(0, 200)}` : '';
  return {
    id: `h-lock-${source.integrationId.slice(-6)}`,
    statement: `A transaction of ${holder} in ${source.name} held locks${since} that ${blocker.blocksSessions} session(s) of ${waiting.join(', ')} waited for, and caused the alert's condition`,
    at,
    run,
    mechanism:
      `${read.product} showed ${blocker.blocksSessions} session(s) of ${waiting.join(', ')} waiting for locks behind ${holder}, ` +
      `whose transaction${since} was ${blocker.state ?? blocker.command ?? 'open'}${what}`,
    mechanismRuns: theirs.length ? [run.ordinal] : [],
    chainRuns: [],
    unexplained: [
      ...(theirs.length ? [] : [`whether the waiting sessions (${waiting.join(', ')}) are ${ctx.who}'s`]),
      `why ${nameOf(blocker)} kept its transaction open`,
    ],
    action: {
      title: `End the transaction of ${holder} in ${source.name}, then find why ${nameOf(blocker)} holds transactions open`,
      rationale: `Its locks held the sessions of ${waiting.join(', ')} waiting since just before the condition began`,
      verification: `${read.tool} shows no session waiting behind it and the alert resolves`,
    },
  };
}

/** Lock waits in the datastores that serve the alerting service (PostgreSQL, MySQL and MariaDB), read in the datastore itself. */
export const datastoreLocksExplainer: Explainer = {
  name: 'datastore lock waits',
  // Read in the datastore, not in Prometheus: no metric has to exist.
  reads: [],
  appliesTo: () => true,
  async explain(ctx, found) {
    return eachDatastore(ctx, found, Object.keys(LOCK_READS), (source) => lockCause(ctx, source));
  },
};
