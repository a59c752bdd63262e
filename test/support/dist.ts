import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTag } from './databases';

export const ROOT = join(__dirname, '../..');
export const DIST_APPS = join(ROOT, 'dist/apps');

/**
 * The compiled service (dist/), built once per test run however many files need real processes:
 * the first caller builds under a lock directory, the others wait for its marker. With SKIP_BUILD
 * set, an existing build is used as it is.
 */
export function ensureBuilt(): void {
  if (process.env.SKIP_BUILD && existsSync(join(DIST_APPS, 'api/src/main.js'))) return;
  const marker = join(ROOT, '.test-results', `built-${runTag()}`);
  const lock = `${marker}.lock`;
  mkdirSync(join(ROOT, '.test-results'), { recursive: true });
  for (;;) {
    if (existsSync(marker)) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!existsSync(marker)) {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
      writeFileSync(marker, '');
    }
  } finally {
    rmdirSync(lock);
  }
}
