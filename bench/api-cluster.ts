import { join } from 'node:path';
import { loadConfigOrExit } from '@svc/platform';
import { forkApiProcesses } from '../apps/launcher/src/api-processes';

/**
 * `SVC_API_PROCESSES` API processes on one port, started as the launcher starts them (without its
 * database preparation or worker), for the bench. The node flags this runs with (CPU profile,
 * gc-on-signal) are passed on to each API process. SIGTERM stops them all.
 */
const children = forkApiProcesses(join(__dirname, '../apps/api/src/main.js'), loadConfigOrExit().SVC_API_PROCESSES, process.execArgv);
let stopping = false;
const stopAll = () => {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
process.on('SIGTERM', stopAll);
process.on('SIGINT', stopAll);
for (const child of children) {
  child.on('exit', () => {
    if (!stopping) stopAll();
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(0);
  });
}
