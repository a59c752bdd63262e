import { appendFileSync } from 'node:fs';

/**
 * Where a service the launcher runs writes its own log: a file under the data directory, so the
 * launcher's stdout stays JSON lines, plus the last lines in memory to explain a failed start.
 */
export class ServiceLog {
  private recent: string[] = [];

  constructor(readonly path: string) {}

  write(text: string): void {
    appendFileSync(this.path, text.endsWith('\n') ? text : `${text}\n`);
    this.recent.push(...text.split('\n').filter((line) => line.trim() !== ''));
    this.recent = this.recent.slice(-15);
  }

  /** The last lines written, for an error message. */
  tail(): string {
    return this.recent.join('\n');
  }
}
