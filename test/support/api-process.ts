import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DIST_APPS, ensureBuilt } from './dist';
import { until } from './until';

export interface ApiProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
}

/**
 * Starts the real API process (dist/apps/api/src/main.js) with exactly `env` (give it PORT) and
 * waits until `${baseUrl}/readyz` answers 200; if it does not within 30 s, it is killed and the
 * error carries its output.
 */
export async function startApiProcess(env: NodeJS.ProcessEnv, baseUrl: string): Promise<ApiProcess> {
  ensureBuilt();
  const child = spawn(process.execPath, [join(DIST_APPS, 'api/src/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error('the API exited');
        try {
          return (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200;
        } catch {
          return false; // not up yet
        }
      },
      30_000,
      'the API to be ready',
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`API did not come up (${(error as Error).message}):\n${output}`, { cause: error });
  }
  return { child, output: () => output };
}
