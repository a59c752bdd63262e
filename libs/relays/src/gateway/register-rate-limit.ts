import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '@svc/platform';

/**
 * Register calls per source address per minute (SVC_RELAY_REGISTER_PER_MINUTE), counted in Redis
 * so the limit holds across API processes; while Redis is unreachable each process counts in
 * memory. Every call counts, granted or refused: a relay registers once in its life, so only a
 * token guesser or a misconfigured relay in a loop comes near the limit. Made by the relay
 * endpoint when it starts, so a process that serves no relays holds no connection for it.
 */
export class RegisterRateLimit {
  private readonly logger = new Logger(RegisterRateLimit.name);
  private readonly redis: Redis;
  private readonly limiter: RateLimiterRedis;

  constructor(config: AppConfig) {
    this.redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000 });
    this.redis.on('error', (error: Error) => this.logger.warn({ err: error }, 'Relay registration limit: Redis unavailable, counting in memory'));
    const keyPrefix = `${config.SVC_QUEUE_PREFIX}:relay-register`;
    const points = config.SVC_RELAY_REGISTER_PER_MINUTE;
    this.limiter = new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: 60,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: 60 }),
    });
  }

  close(): void {
    this.redis.disconnect();
  }

  /** Counts one Register call from `address`; the seconds to wait when past the limit, else null. */
  async consume(address: string | null): Promise<number | null> {
    try {
      await this.limiter.consume(address ?? 'unknown', 1);
      return null;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  }
}
