import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopedRepositoryModule } from '@svc/platform';
import { AlertEvent } from './alert-event.entity';
import { IncidentAlert } from './incident-alert.entity';
import { Incident } from './incident.entity';
import { IncidentsController } from './incidents.controller';
import { IncidentAdmissionRepository } from './incident-admission.repository';
import { IncidentAdmissionService } from './incident-admission.service';
import { IncidentsRepository } from './incidents.repository';
import { IncidentsService } from './incidents.service';

@Module({
  imports: [TypeOrmModule.forFeature([IncidentAlert]), ScopedRepositoryModule.forFeature([Incident, AlertEvent])],
  controllers: [IncidentsController],
  providers: [IncidentsService, IncidentAdmissionService, IncidentAdmissionRepository, IncidentsRepository],
  exports: [IncidentsService, IncidentAdmissionService],
})
export class IncidentsModule {}
