import { BullModule } from '@nestjs/bull';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { JobDeclaration } from './job-declaration';
import { JobWiring } from './job-wiring';
import { Outbox } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { QueueMetrics } from './queue-metrics';

@Global()
@Module({})
export class QueueModule {
  /** The Redis connection of every queue, and the Outbox for writing jobs in a transaction. */
  static forRoot(): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        BullModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            url: config.REDIS_URL,
            prefix: config.SVC_QUEUE_PREFIX,
            defaultJobOptions: { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: 10_000, removeOnFail: 10_000 },
            // A dead worker's jobs are found stalled and taken up again after about the lock duration.
            settings: {
              lockDuration: config.SVC_QUEUE_JOB_LOCK_SECONDS * 1000,
              stalledInterval: Math.max(1000, config.SVC_QUEUE_JOB_LOCK_SECONDS * 500),
              maxStalledCount: 3,
            },
          }),
        }),
        TypeOrmModule.forFeature([OutboxMessage]),
      ],
      providers: [Outbox, OutboxRepository],
      exports: [Outbox, OutboxRepository, BullModule],
    };
  }

  /** A domain module's queue and the job names it puts on it. */
  static forFeature(queue: string, jobs: readonly string[]): DynamicModule {
    return {
      module: class QueueFeatureModule {},
      imports: [BullModule.registerQueue({ name: queue })],
      providers: [{ provide: `svc:jobs:${queue}`, useValue: new JobDeclaration(queue, jobs) }],
      exports: [BullModule],
    };
  }

  /** For the API: the depth of every declared queue on /metrics (`svc_queue_jobs`), which the worker autoscaler reads. */
  static forMetrics(): DynamicModule {
    return {
      module: class QueueMetricsModule {},
      imports: [DiscoveryModule],
      providers: [QueueMetrics],
    };
  }

  /** For the worker: checks the job wiring at boot and runs the outbox relay. */
  static forWorker(): DynamicModule {
    return {
      module: class QueueWorkerModule {},
      imports: [DiscoveryModule],
      providers: [JobWiring, OutboxRelay],
      exports: [OutboxRelay, JobWiring],
    };
  }
}
