import type { Logger } from '@nestjs/common';

/**
 * A piece of work a worker repeats on an interval (a retention sweep, a look for new incidents):
 * once when started, then every `everyMs`, never two at once in one process (a sweep still running
 * when the next is due is not started again); a failure is logged as a warning and the next sweep
 * tries again. `stop` clears the interval and waits for the sweep in flight. The timer never keeps
 * the process alive.
 */
export class PeriodicSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly options: {
      everyMs: number;
      sweep: () => Promise<unknown>;
      logger: Logger;
      /** What the warning says when a sweep fails. */
      failure: string;
    },
  ) {}

  start(): void {
    const sweep = (): void => {
      this.running ??= this.options
        .sweep()
        .then(
          () => undefined,
          (error: unknown) => this.options.logger.warn({ err: error }, this.options.failure),
        )
        .finally(() => (this.running = undefined));
    };
    this.timer = setInterval(sweep, this.options.everyMs);
    this.timer.unref();
    sweep();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
