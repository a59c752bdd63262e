import { Module } from '@nestjs/common';
import { ConfigModule, DatabaseModule, LoggingModule, QueueModule } from '@svc/platform';
import { MIGRATIONS } from '../../../migrations';

/**
 * The queue worker: the same domain modules as the API, without HTTP. Only their processors run
 * here. It also relays the transactional outbox to the queues.
 */
@Module({
  imports: [
    ConfigModule,
    LoggingModule.forRoot('worker'),
    DatabaseModule.forRoot({ migrations: MIGRATIONS, applicationName: 'svc-worker' }),
    QueueModule.forRoot(),
    QueueModule.forWorker(),
  ],
})
export class WorkerModule {}
