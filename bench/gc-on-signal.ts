import { writeFileSync } from 'node:fs';

/**
 * Preloaded into the bench's API (`node --expose-gc --require …/gc-on-signal.js`): SIGWINCH runs a
 * full garbage collection and, when BENCH_MEMORY_FILE is set, writes process.memoryUsage() there,
 * so the bench can read memory without the garbage of whatever ran just before. SIGWINCH because
 * its default action is to be ignored and Nest's shutdown hooks do not take it (they take SIGUSR2,
 * SIGHUP and the other terminating signals). Without --expose-gc it installs nothing.
 */
const collect = (globalThis as { gc?: () => void }).gc;
const file = process.env.BENCH_MEMORY_FILE;
if (collect) {
  process.on('SIGWINCH', () => {
    collect();
    if (!file) return;
    writeFileSync(file, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
  });
}
