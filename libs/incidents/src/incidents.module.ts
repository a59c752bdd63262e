import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AlertEvent } from './alert-event.entity';
import { IncidentAlert } from './incident-alert.entity';
import { Incident } from './incident.entity';
import { IncidentsController } from './incidents.controller';
import { IncidentAdmissionService } from './incident-admission.service';
import { IncidentsService } from './incidents.service';

@Module({
  imports: [TypeOrmModule.forFeature([Incident, AlertEvent, IncidentAlert])],
  controllers: [IncidentsController],
  providers: [IncidentsService, IncidentAdmissionService],
  exports: [IncidentsService, IncidentAdmissionService],
})
export class IncidentsModule {}
