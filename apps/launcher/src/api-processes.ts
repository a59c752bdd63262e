import cluster from 'node:cluster';
import { ChildProcess, fork } from 'node:child_process';

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
