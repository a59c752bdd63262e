import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../access/access.decorators';
import { RedisHealthIndicator } from './redis-health';

/** Liveness and readiness, outside the product API (no authentication, no Organization data). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  /** The process is up and serving; says nothing about its dependencies. */
  @Public()
  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** PostgreSQL and Redis answer; 503 otherwise, so a balancer stops sending traffic. */
  @Public()
  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.database.pingCheck('postgres', { timeout: 1000 }), () => this.redis.check('redis')]);
  }
}
