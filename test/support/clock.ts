import { Clock } from '@svc/platform';

/**
 * A clock that moves only when the test moves it, bound in place of the system's (`startApi({
 * clock })`, `startInProcessWorker({ clock })`): `monotonicMs` stands still, and a `sleep` ends
 * when `advance` takes the clock to its end. A bound is then checked by moving the clock to it,
 * never by waiting, and a wait the service chose is read from `pendingSleeps()`.
 */
export class TestClock extends Clock {
  private at = 1_000_000;
  private readonly sleepers: { ms: number; endsAt: number; wake: () => void }[] = [];

  monotonicMs(): number {
    return this.at;
  }

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((wake) => this.sleepers.push({ ms, endsAt: this.at + ms, wake }));
  }

  /** The sleeps not ended yet, each as the milliseconds it asked for, in the order they began. */
  pendingSleeps(): number[] {
    return this.sleepers.map((s) => s.ms);
  }

  /** Moves the clock `ms` ahead and ends the sleeps that reach their end. */
  advance(ms: number): void {
    this.at += ms;
    for (const sleeper of [...this.sleepers]) {
      if (sleeper.endsAt > this.at) continue;
      this.sleepers.splice(this.sleepers.indexOf(sleeper), 1);
      sleeper.wake();
    }
  }

  /** Ends every pending sleep (at teardown: nothing may wait for a clock nobody moves any more). */
  wakeAll(): void {
    for (const sleeper of this.sleepers.splice(0)) sleeper.wake();
  }
}
