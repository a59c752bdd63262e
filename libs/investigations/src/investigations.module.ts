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
import { KubernetesSnapshot } from './snapshots/kubernetes-snapshot.entity';
import { KubernetesSnapshotsController } from './snapshots/kubernetes-snapshots.controller';
import { KubernetesSnapshotsRepository } from './snapshots/kubernetes-snapshots.repository';

@Module({
  imports: [
    ScopedRepositoryModule.forFeature([Investigation, ToolRun, InvestigationActivity, InvestigationSource, KubernetesSnapshot]),
    QueueModule.forFeature(INVESTIGATIONS_QUEUE, [RUN_INVESTIGATION_JOB]),
    IncidentsModule,
  ],
  controllers: [InvestigationsController, KubernetesSnapshotsController],
  providers: [
    InvestigationsService,
    ActivityService,
    ActivityNotifier,
    InvestigationEventStream,
    InvestigationsRepository,
    ToolRunsRepository,
    KubernetesSnapshotsRepository,
  ],
  exports: [InvestigationsService, ActivityService, InvestigationsRepository, ToolRunsRepository, KubernetesSnapshotsRepository, ScopedRepositoryModule],
})
export class InvestigationsModule {}
