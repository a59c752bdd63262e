import type { ChildProcess } from 'node:child_process';

/**
 * A server process the launcher started itself (PostgreSQL, Redis): whether it runs, a callback
 * when it ends without being asked, and a stop by the signal that shuts that server down cleanly.
 */
export abstract class LocalServerProcess {
  private stopping = false;

  protected constructor(
    protected readonly process: ChildProcess,
    private readonly stopSignal: NodeJS.Signals,
  ) {}

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Calls back when the server ends without being asked to stop. */
  onUnexpectedExit(callback: (code: number | null) => void): void {
    this.process.once('exit', (code) => this.stopping || callback(code));
  }

  /** Stops the server by its clean-shutdown signal and resolves when it has exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.running) return;
    await new Promise<void>((resolve) => {
      this.process.once('exit', () => resolve());
      this.process.kill(this.stopSignal);
    });
  }

  /** Last resort while the launcher exits: ask the server to stop, without waiting. */
  stopNow(): void {
    this.stopping = true;
    if (this.running) this.process.kill(this.stopSignal);
  }
}
