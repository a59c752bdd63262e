import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from 'node:fs';

/**
 * The log file of a service the launcher runs, under the data directory, so the launcher's stdout
 * stays JSON lines. The server writes to it directly (it outlives any pipe to the launcher); its
 * last lines explain a failed start.
 */
export class ServiceLog {
  constructor(readonly path: string) {}

  write(text: string): void {
    appendFileSync(this.path, text.endsWith('\n') ? text : `${text}\n`);
  }

  /** A file descriptor appending to the log, for a child's stdout and stderr; closed by `use`'s end. */
  withDescriptor<T>(use: (fd: number) => T): T {
    const fd = openSync(this.path, 'a');
    try {
      return use(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The last lines, for an error message. */
  tail(lines = 15): string {
    if (!existsSync(this.path)) return '';
    return readFileSync(this.path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }
}
