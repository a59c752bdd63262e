import { getQueueToken } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { Gauge } from 'prom-client';
import { Metrics } from '../observability/metrics';
import { JobDeclaration } from './job-declaration';
import { OutboxRepository } from './outbox.repository';

/** The most committed-but-not-queued messages a scrape counts (the count is exact below it). */
const OUTBOX_COUNT_CAP = 100_000;

/**
 * How deep the job queues are, read when /metrics is scraped: per queue, the jobs committed to
 * the outbox and not yet moved to the queue (`outbox`), and the queue's `waiting`, `active` and
 * `delayed` jobs. Every API process reports the same figures (they are the shared queues'), so
 * an autoscaler takes their maximum. When the queues or the database cannot be read, the gauge
 * has no values for that scrape, rather than stale ones.
 */
@Injectable()
export class QueueMetrics implements OnApplicationBootstrap {
  private readonly logger = new Logger('QueueMetrics');
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly outbox: OutboxRepository,
    metrics: Metrics,
  ) {
    const read = () => this.read();
    new Gauge({
      name: 'svc_queue_jobs',
      help: 'Jobs of each queue by state: outbox (committed, not yet on the queue), waiting, active, delayed; the same on every API process',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        this.reset();
        const depths = await read();
        for (const [queue, states] of depths) for (const [state, jobs] of Object.entries(states)) this.set({ queue, state }, jobs);
      },
    });
  }

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      if (!(wrapper.instance instanceof JobDeclaration) || this.queues.has(wrapper.instance.queue)) continue;
      this.queues.set(wrapper.instance.queue, this.moduleRef.get<Queue>(getQueueToken(wrapper.instance.queue), { strict: false }));
    }
  }

  private async read(): Promise<Map<string, Record<string, number>>> {
    const depths = new Map<string, Record<string, number>>();
    try {
      const outbox = await this.outbox.pendingCountsAcrossOrganizations(OUTBOX_COUNT_CAP);
      const counts = await Promise.all([...this.queues].map(async ([name, queue]) => [name, await queue.getJobCounts()] as const));
      for (const [name, c] of counts) {
        depths.set(name, { outbox: outbox.get(name) ?? 0, waiting: c.waiting, active: c.active, delayed: c.delayed });
      }
    } catch (error) {
      this.logger.warn(`Queue depths could not be read: ${(error as Error).message}`);
      return new Map();
    }
    return depths;
  }
}
