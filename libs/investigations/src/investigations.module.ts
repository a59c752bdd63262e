import { Module } from '@nestjs/common';
import { IncidentsModule } from '@svc/incidents';
import { QueueModule, ScopedRepositoryModule } from '@svc/platform';
import { ActivityService } from './activity.service';
import { InvestigationActivity } from './investigation-activity.entity';
import { InvestigationSource } from './investigation-source.entity';
import { Investigation } from './investigation.entity';
import { InvestigationsController } from './investigations.controller';
import { InvestigationsRepository } from './investigations.repository';
import { ToolRunsRepository } from './tool-runs.repository';
import { INVESTIGATIONS_QUEUE, InvestigationsService, RUN_INVESTIGATION_JOB } from './investigations.service';
import { ActivityNotifier, InvestigationEventStream } from './stream';
import { ToolRun } from './tool-run.entity';

@Module({
  imports: [
    ScopedRepositoryModule.forFeature([Investigation, ToolRun, InvestigationActivity, InvestigationSource]),
    QueueModule.forFeature(INVESTIGATIONS_QUEUE, [RUN_INVESTIGATION_JOB]),
    IncidentsModule,
  ],
  controllers: [InvestigationsController],
  providers: [InvestigationsService, ActivityService, ActivityNotifier, InvestigationEventStream, InvestigationsRepository, ToolRunsRepository],
  exports: [InvestigationsService, ActivityService, InvestigationsRepository, ToolRunsRepository, ScopedRepositoryModule],
})
export class InvestigationsModule {}
