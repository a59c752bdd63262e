import { DynamicModule, Module } from '@nestjs/common';
import { AuditModule } from '@svc/audit';
import { AuthModule } from '@svc/auth';
import { ChangesWorkerModule } from '@svc/changes';
import { ConversationsWorkerModule } from '@svc/conversations/worker';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { InvestigationEngineModule } from '@svc/investigations/engine';
import { OrganizationsModule } from '@svc/organizations';
import { PostmortemsWorkerModule } from '@svc/postmortems/worker';
import { RelaysModule } from '@svc/relays';
import { AppConfig, ClockModule, ConfigModule, DatabaseModule, LoggingModule, PaginationModule, QueueModule } from '@svc/platform';
import { MIGRATIONS } from '../../../migrations';

/**
 * The queue worker: the same domain modules as the API, without HTTP. Only their processors run
 * here. It also relays the transactional outbox to the queues.
 */
@Module({
  imports: [
    DatabaseModule.forRoot({ migrations: MIGRATIONS, applicationName: 'svc-worker' }),
    ClockModule,
    QueueModule.forRoot(),
    QueueModule.forWorker(),
    PaginationModule,
    AuditModule,
    OrganizationsModule,
    AuthModule,
    IntegrationsModule,
    IncidentsModule,
    InvestigationEngineModule,
    ConversationsWorkerModule,
    PostmortemsWorkerModule,
    RelaysModule,
    ChangesWorkerModule,
  ],
})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [ConfigModule.forRoot(config), LoggingModule.forRoot('worker', config)] };
  }
}
