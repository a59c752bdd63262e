import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function findVersion(): string {
  // Works from the sources (libs/platform/src) and from the build (dist/libs/platform/src).
  for (const up of ['../../..', '../../../..']) {
    try {
      return (JSON.parse(readFileSync(join(__dirname, up, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      /* try the next candidate */
    }
  }
  return '0.0.0';
}

export const SERVICE_NAME = 'incident-investigation-service';
export const SERVICE_VERSION = findVersion();
