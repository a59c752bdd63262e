import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig, consumeOrWait, DomainError, SharedLimits } from '@svc/platform';

/**
 * Requests per minute per session or API token (decisions §12), counted in Redis so the limit
 * holds across API instances; while Redis is unreachable each instance counts in memory.
 */
@Injectable()
export class RequestRateLimit implements OnModuleDestroy {
  private readonly limits: SharedLimits;
  private readonly limiter: RateLimiterRedis;

  constructor(config: AppConfig) {
    this.limits = new SharedLimits(config.REDIS_URL, 'Request rate limit');
    this.limiter = this.limits.limiter(`${config.SVC_QUEUE_PREFIX}:requests`, config.SVC_RATE_LIMIT_PER_MINUTE, 60);
  }

  onModuleDestroy(): void {
    this.limits.close();
  }

  /** Counts one request of the caller (`session:<id>` or `token:<id>`); 429 with Retry-After past the limit. */
  async consume(caller: string): Promise<void> {
    const retryAfterSeconds = await consumeOrWait(this.limiter, caller);
    if (retryAfterSeconds !== null) throw new DomainError('rate_limited', 'Too many requests; slow down', { retryAfterSeconds });
  }
}
