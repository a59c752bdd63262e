import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { loadConfigOrExit } from '@svc/platform';
import { apiProcessCount, forkApiProcesses } from './api-processes';
import { prepareDatabase } from './migrate';

/**
 * `npm start`: validates configuration, creates and migrates the database, then runs
 * `SVC_API_PROCESSES` API processes (default 1, sharing PORT) and one worker as child processes.
 * When any of them exits on its own, the others are stopped and the launcher exits with its code;
 * SIGINT/SIGTERM are passed on to all, and the launcher exits 0 once all have stopped. Production runs the two separately
 * (`npm run start:api`, `npm run start:worker`) after `npm run db:migrate`.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const apiProcesses = apiProcessCount();
  const notes = await prepareDatabase(config);
  process.stdout.write(`${JSON.stringify({ level: 'info', process: 'launcher', msg: `database ready: ${notes.join('; ')}` })}\n`);

  const children: ChildProcess[] = [
    ...forkApiProcesses(join(__dirname, '../../api/src/main.js'), apiProcesses),
    fork(join(__dirname, '../../worker/src/main.js'), { stdio: 'inherit' }),
  ];
  // A stop the launcher was asked for ends with 0; a child that died on its own ends it with failure.
  let stopRequested = false;
  let firstFailure: number | undefined;
  const stopAll = (signal: NodeJS.Signals) => children.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill(signal));
  for (const child of children) {
    child.on('exit', (code) => {
      if (!stopRequested && firstFailure === undefined) {
        firstFailure = code || 1;
        stopAll('SIGTERM');
      }
      if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(stopRequested ? 0 : firstFailure ?? 1);
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopRequested = true;
      stopAll(signal);
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
