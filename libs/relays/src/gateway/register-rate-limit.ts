import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig, consumeOrWait, SharedLimits } from '@svc/platform';

/**
 * Register calls per source address per minute (SVC_RELAY_REGISTER_PER_MINUTE), counted in Redis
 * so the limit holds across API processes; while Redis is unreachable each process counts in
 * memory. Every call counts, granted or refused: a relay registers once in its life, so only a
 * token guesser or a misconfigured relay in a loop comes near the limit. Made by the relay
 * endpoint when it starts, so a process that serves no relays holds no connection for it.
 */
export class RegisterRateLimit {
  private readonly limits: SharedLimits;
  private readonly limiter: RateLimiterRedis;

  constructor(config: AppConfig) {
    this.limits = new SharedLimits(config.REDIS_URL, 'Relay registration limit');
    this.limiter = this.limits.limiter(`${config.SVC_QUEUE_PREFIX}:relay-register`, config.SVC_RELAY_REGISTER_PER_MINUTE, 60);
  }

  close(): void {
    this.limits.close();
  }

  /** Counts one Register call from `address`; the whole seconds to wait when past the limit, else null. */
  async consume(address: string | null): Promise<number | null> {
    const wait = await consumeOrWait(this.limiter, address ?? 'unknown');
    return wait === null ? null : Math.max(1, Math.ceil(wait));
  }
}
