import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/** Readiness of Redis: a PING on a dedicated connection that never queues commands while down. */
@Injectable()
export class RedisHealthIndicator implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(
    config: AppConfig,
    private readonly indicators: HealthIndicatorService,
  ) {
    this.redis = new Redis(config.REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000 });
    this.redis.on('error', () => undefined);
  }

  async check(key: string) {
    const indicator = this.indicators.check(key);
    try {
      if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
      const pong = await Promise.race([this.redis.ping(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 1000))]);
      return pong === 'PONG' ? indicator.up() : indicator.down({ message: 'unexpected reply' });
    } catch (error) {
      return indicator.down({ message: (error as Error).message });
    }
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
