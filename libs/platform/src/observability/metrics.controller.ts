import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { Metrics } from './metrics';

/** Prometheus text exposition; expose it to the scraper only (see docs/operations.md). */
@ApiExcludeController()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Public()
  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
