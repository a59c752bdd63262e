import cluster from 'node:cluster';
import { ChildProcess, fork } from 'node:child_process';

/** At most this many API processes (a sanity bound; one per core is the useful range). */
const MAX_API_PROCESSES = 64;

/** `SVC_API_PROCESSES` (default 1): how many API processes the launcher runs, sharing PORT. */
export function apiProcessCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_API_PROCESSES?.trim() || '1';
  const count = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(count >= 1 && count <= MAX_API_PROCESSES)) throw new Error(`SVC_API_PROCESSES must be a whole number from 1 to ${MAX_API_PROCESSES}, not "${raw}"`);
  return count;
}

/**
 * Starts `count` API processes that share one listening port. One is a plain child process; more
 * are workers of node:cluster, whose primary (this process) accepts the connections and hands them
 * out in turn. Every API process is a complete API (its own pool, caches and LISTEN connections).
 */
export function forkApiProcesses(apiMain: string, count: number, execArgv: string[] = []): ChildProcess[] {
  if (count === 1) return [fork(apiMain, { stdio: 'inherit', execArgv })];
  cluster.setupPrimary({ exec: apiMain, execArgv });
  return Array.from({ length: count }, () => cluster.fork().process);
}
