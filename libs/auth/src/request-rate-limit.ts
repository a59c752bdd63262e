import { Injectable, OnModuleDestroy } from '@nestjs/common';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import { AppConfig, BatchedCounter, DomainError, SharedLimits } from '@svc/platform';

/**
 * Requests per minute per session or API token (decisions §12), counted in Redis so the limit
 * holds across API instances; while Redis is unreachable each instance counts in memory. A
 * request does not wait for Redis: each process adds its count to Redis every 50 ms (see
 * BatchedCounter), exact within one process, and across processes over by at most what each
 * admitted in those 50 ms.
 */
@Injectable()
export class RequestRateLimit implements OnModuleDestroy {
  private readonly limits: SharedLimits;
  private readonly counter: BatchedCounter;

  constructor(config: AppConfig) {
    this.limits = new SharedLimits(config.REDIS_URL, 'Request rate limit');
    const limiter: RateLimiterRedis = this.limits.limiter(`${config.SVC_QUEUE_PREFIX}:requests`, config.SVC_RATE_LIMIT_PER_MINUTE, 60);
    this.counter = new BatchedCounter(limiter, config.SVC_RATE_LIMIT_PER_MINUTE);
  }

  onModuleDestroy(): void {
    this.counter.close();
    this.limits.close();
  }

  /** Counts one request of the caller (`session:<id>` or `token:<id>`); 429 with Retry-After past the limit. */
  async consume(caller: string): Promise<void> {
    const retryAfterSeconds = await this.counter.consume(caller);
    if (retryAfterSeconds !== null) throw new DomainError('rate_limited', 'Too many requests; slow down', { retryAfterSeconds });
  }
}
