import { Test } from '@nestjs/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Clock, JobWiring, loadConfig } from '@svc/platform';
import { DIST_APPS, ensureBuilt } from './dist';

export interface TestWorker {
  child: ChildProcess;
  /** SIGTERM, and wait for the process to exit. */
  close: () => Promise<void>;
}

/**
 * Starts the real worker process (`npm run start:worker`'s dist/apps/worker/src/main.js) against
 * the test API's database, Redis prefix and secret key (startApi put them in process.env), and
 * waits until it says it processes jobs.
 */
export async function startWorker(env: Record<string, string> = {}): Promise<TestWorker> {
  ensureBuilt();
  const child = spawn(process.execPath, [join(DIST_APPS, 'worker/src/main.js')], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The worker did not start:\n${output}`)), 30_000);
    const watch = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Worker started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', watch);
    child.stderr!.on('data', watch);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The worker exited with ${code}:\n${output}`));
    });
  });
  // Keep draining its output so the pipe never fills.
  child.stdout!.removeAllListeners('data').resume();
  child.stderr!.removeAllListeners('data').resume();
  return {
    child,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The real worker (WorkerModule, as `main.ts` builds it) in the test's own process, against the
 * test API's database, Redis prefix and secret key (startApi put them in process.env), with a
 * clock the test moves instead of the system's when `clock` is given. Its processors take jobs
 * once it returns.
 */
export async function startInProcessWorker(options: { clock?: Clock } = {}): Promise<{ close: () => Promise<void> }> {
  const { WorkerModule } = await import('../../apps/worker/src/worker.module');
  const builder = Test.createTestingModule({ imports: [WorkerModule.forRoot(loadConfig())] });
  if (options.clock) builder.overrideProvider(Clock).useValue(options.clock);
  const moduleRef = await builder.compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  if (moduleRef.get(JobWiring).jobs.length === 0) throw new Error('The in-process worker wired no jobs');
  return { close: () => moduleRef.close() };
}
