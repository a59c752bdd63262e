import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Counters shared by every process through Redis (request, sign-in and relay registration
 * limits): one connection that never queues commands while Redis is away (a limit must answer at
 * once), and limiters that count in this process's memory meanwhile instead of letting everyone
 * through.
 */
export class SharedLimits {
  private readonly redis: Redis;

  /** `what` names the limits in the warning logged while Redis is unreachable. */
  constructor(redisUrl: string, what: string) {
    const logger = new Logger(SharedLimits.name);
    this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000 });
    this.redis.on('error', (error: Error) => logger.warn({ err: error }, `${what}: Redis unavailable, counting in memory`));
  }

  /** At most `points` per `durationSeconds` per key, under `keyPrefix`. */
  limiter(keyPrefix: string, points: number, durationSeconds: number): RateLimiterRedis {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix,
      points,
      duration: durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds }),
    });
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** Counts one use of `key`; the seconds to wait when past the limit, else null. */
export async function consumeOrWait(limiter: RateLimiterRedis, key: string): Promise<number | null> {
  try {
    await limiter.consume(key, 1);
    return null;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    return rejection.msBeforeNext / 1000;
  }
}
