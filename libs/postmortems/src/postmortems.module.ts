import { Module } from '@nestjs/common';
import { IncidentsModule } from '@svc/incidents';
import { InvestigationsModule } from '@svc/investigations';
import { QueueModule, ScopedRepositoryModule } from '@svc/platform';
import { Postmortem, PostmortemRevision } from './postmortem.entity';
import { PostmortemsController } from './postmortems.controller';
import { PostmortemsRepository } from './postmortems.repository';
import { POSTMORTEMS_QUEUE, PostmortemsService, WRITE_NARRATIVE_JOB } from './postmortems.service';

@Module({
  imports: [
    ScopedRepositoryModule.forFeature([Postmortem, PostmortemRevision]),
    QueueModule.forFeature(POSTMORTEMS_QUEUE, [WRITE_NARRATIVE_JOB]),
    IncidentsModule,
    InvestigationsModule,
  ],
  controllers: [PostmortemsController],
  providers: [PostmortemsService, PostmortemsRepository],
  exports: [PostmortemsService, PostmortemsRepository],
})
export class PostmortemsModule {}
