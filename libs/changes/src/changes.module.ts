import { Module } from '@nestjs/common';
import { IncidentsModule } from '@svc/incidents';
import { ScopedRepositoryModule } from '@svc/platform';
import { ChangeEvent } from './change-event.entity';
import { ServiceCall } from './service-call.entity';
import { ServiceCallsRepository } from './service-calls.repository';
import { ChangesController, IncidentChangesController } from './changes.controller';
import { ChangesRepository } from './changes.repository';
import { ChangesService } from './changes.service';

/** The entities this library owns, for a DataSource built outside Nest (tests, tools). */
export const CHANGES_ENTITIES = [ChangeEvent, ServiceCall];

/** Changes to the Organization's systems, as deploy and configuration tools report them, and the calls between its services that tie them to incidents. */
@Module({
  imports: [ScopedRepositoryModule.forFeature(CHANGES_ENTITIES), IncidentsModule],
  controllers: [ChangesController, IncidentChangesController],
  providers: [ChangesRepository, ServiceCallsRepository, ChangesService],
  exports: [ChangesService, ChangesRepository, ServiceCallsRepository],
})
export class ChangesModule {}
