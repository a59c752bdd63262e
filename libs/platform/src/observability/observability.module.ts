import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { MetaController } from './meta.controller';
import { LeanRoutes } from '../http/lean-routes';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { RedisHealthIndicator } from './redis-health';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [MetaController, HealthController, MetricsController],
  providers: [Metrics, RedisHealthIndicator, LeanRoutes],
  exports: [Metrics, LeanRoutes],
})
export class ObservabilityModule {}
