import { DynamicModule, Module } from '@nestjs/common';
import { AlertsModule } from '@svc/alerts';
import { ChangesModule } from '@svc/changes';
import { AuditModule } from '@svc/audit';
import { AuthModule, OidcModule } from '@svc/auth';
import { ConversationsModule } from '@svc/conversations';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { InvestigationsModule } from '@svc/investigations';
import { OrganizationsModule } from '@svc/organizations';
import { PostmortemsModule } from '@svc/postmortems';
import { RelayGatewayModule, RelaysModule } from '@svc/relays';
import { AppConfig, ClockModule, ConfigModule, DatabaseModule, LoggingModule, ObservabilityModule, PaginationModule, QueueModule } from '@svc/platform';
import { MIGRATIONS } from '../../../migrations';

/** The HTTP API: wires the platform and the domain modules; no logic of its own. Built with the process's one AppConfig. */
@Module({
  imports: [
    DatabaseModule.forRoot({ migrations: MIGRATIONS, applicationName: 'svc-api' }),
    ClockModule,
    QueueModule.forRoot(),
    QueueModule.forMetrics(),
    PaginationModule,
    ObservabilityModule,
    AuditModule,
    OrganizationsModule,
    AuthModule,
    IntegrationsModule,
    IncidentsModule,
    AlertsModule,
    ChangesModule,
    InvestigationsModule,
    ConversationsModule,
    PostmortemsModule,
    OidcModule,
    RelaysModule,
    RelayGatewayModule,
  ],
})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [ConfigModule.forRoot(config), LoggingModule.forRoot('api', config)] };
  }
}
