import { Global, Module } from '@nestjs/common';
import { performance } from 'node:perf_hooks';

/**
 * The time the service measures its bounds with, read through this one port: how long a read
 * may be served from memory (`RecentReads`), how long a retry waits (the chat poster). Production
 * binds the system's clock (`SystemClock`); a test binds a clock it moves itself, so a bound is
 * checked by moving the clock past it instead of by waiting.
 */
export abstract class Clock {
  /** Milliseconds on a monotonic scale (never steps back, whatever the wall clock does); only differences mean anything. */
  abstract monotonicMs(): number;

  /** Resolves once `ms` milliseconds of this clock have passed. */
  abstract sleep(ms: number): Promise<void>;
}

/** The system's clock: `performance.now()` and timers. */
export class SystemClock extends Clock {
  monotonicMs(): number {
    return performance.now();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** Provides the process's one `Clock`, the system's; imported once by each app. */
@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }],
  exports: [Clock],
})
export class ClockModule {}
