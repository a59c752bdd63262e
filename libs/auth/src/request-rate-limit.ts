import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig, DomainError } from '@svc/platform';

/**
 * Requests per minute per session or API token (decisions §12), counted in Redis so the limit
 * holds across API instances; while Redis is unreachable each instance counts in memory.
 */
@Injectable()
export class RequestRateLimit implements OnModuleDestroy {
  private readonly logger = new Logger(RequestRateLimit.name);
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;

  constructor(config: AppConfig) {
    this.redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000 });
    this.redis.on('error', (error: Error) => this.logger.warn({ err: error }, 'Request rate limit: Redis unavailable, counting in memory'));
    const keyPrefix = `${config.SVC_QUEUE_PREFIX}:requests`;
    const points = config.SVC_RATE_LIMIT_PER_MINUTE;
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: 60,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: 60 }),
    });
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }

  /** Counts one request of the caller (`session:<id>` or `token:<id>`); 429 with Retry-After past the limit. */
  async consume(caller: string): Promise<void> {
    try {
      await this.limiter.consume(caller, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new DomainError('rate_limited', 'Too many requests; slow down', { retryAfterSeconds: rejection.msBeforeNext / 1000 });
    }
  }
}
