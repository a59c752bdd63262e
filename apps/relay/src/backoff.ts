/**
 * Reconnect delays: exponential from `minMs` to `maxMs`, each drawn at random between half and
 * all of the step, so relays cut off together do not come back together.
 */
export class JitteredBackoff {
  private attempt = 0;

  constructor(
    private readonly minMs = 500,
    private readonly maxMs = 30_000,
    private readonly random: () => number = Math.random,
  ) {}

  next(): number {
    const step = Math.min(this.maxMs, this.minMs * 2 ** this.attempt);
    this.attempt = Math.min(this.attempt + 1, 30);
    return Math.round(step / 2 + (this.random() * step) / 2);
  }

  reset(): void {
    this.attempt = 0;
  }
}
