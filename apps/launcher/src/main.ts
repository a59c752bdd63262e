import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { loadConfigOrExit } from '@svc/platform';
import { forkApiProcesses } from './api-processes';
import { LocalServices } from './local-services';
import { prepareDatabase } from './migrate';

const log = (msg: string) => process.stdout.write(`${JSON.stringify({ level: 'info', process: 'launcher', msg })}\n`);

/**
 * `npm start`: validates configuration, starts PostgreSQL and Redis itself when the machine has none
 * (see LocalServices), creates and migrates the database, then runs `SVC_API_PROCESSES` API
 * processes (default 1, sharing PORT) and one worker as child processes. When any of them exits on
 * its own, the others are stopped and the launcher exits with its code; SIGINT/SIGTERM are passed on. What the launcher started itself stops after the children.
 * Production runs the two separately (`npm run start:api`, `npm run start:worker`) after
 * `npm run db:migrate`.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // A stop the launcher was asked for ends with 0; a child that died on its own ends it with failure.
  let stopRequested = false;
  let firstFailure: number | undefined;
  let children: ChildProcess[] = [];
  let localServices: LocalServices | undefined;
  const stopAll = (signal: NodeJS.Signals) => children.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill(signal));
  const exit = (code: number) => void (localServices?.stop() ?? Promise.resolve()).finally(() => process.exit(code));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      stopRequested = true;
      // A closed terminal (SIGHUP) stops the service like SIGTERM: the servers the launcher started
      // run in their own sessions and would otherwise outlive it.
      stopAll(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    });
  }

  try {
    localServices = await LocalServices.start();
    log(localServices.summary);
    if (stopRequested) return exit(0);
    const notes = await prepareDatabase(localServices.databaseUrl ?? config.DATABASE_URL);
    log(`database ready: ${notes.join('; ')}`);
  } catch (error) {
    process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return exit(1);
  }
  if (stopRequested) return exit(0);

  children = [
    ...forkApiProcesses(join(__dirname, '../../api/src/main.js'), config.SVC_API_PROCESSES),
    fork(join(__dirname, '../../worker/src/main.js'), { stdio: 'inherit' }),
  ];
  const fail = (code: number) => {
    if (stopRequested || firstFailure !== undefined) return;
    firstFailure = code;
    stopAll('SIGTERM');
  };
  localServices.onUnexpectedExit((service, code) => {
    if (stopRequested) return;
    process.stderr.write(`${service} stopped unexpectedly (exit code ${code}); stopping\n`);
    fail(1);
  });
  for (const child of children) {
    child.on('exit', (code) => {
      fail(code || 1);
      if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) exit(stopRequested ? 0 : (firstFailure ?? 1));
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
