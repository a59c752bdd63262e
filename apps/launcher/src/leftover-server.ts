import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

/**
 * Stops a server that an earlier launcher started from `dir` and could not stop (it was killed with
 * SIGKILL): the pid in its pid file, if that process is alive and still works in `dir` (its current
 * directory, which PostgreSQL and Redis both move into), so a reused pid is never signalled. Where
 * /proc does not exist, nothing is stopped. Returns the pid it stopped.
 */
export async function stopLeftoverServer(pidFile: string, dir: string, signal: NodeJS.Signals): Promise<number | undefined> {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  try {
    if (readlinkSync(`/proc/${pid}/cwd`) !== realpathSync(dir)) return undefined;
  } catch {
    return undefined;
  }
  process.kill(pid, signal);
  const deadline = Date.now() + 30_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid}, left running by an earlier start in ${dir}, did not stop on ${signal}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
