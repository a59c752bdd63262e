import { Module } from '@nestjs/common';
import { PostmortemsModule } from '../postmortems.module';
import { PostmortemNarrativeProcessor } from './postmortem-narrative.processor';
import { PostmortemNarrativeWriter } from './postmortem-narrative.writer';

/** The worker's side of postmortems: the narrative job. */
@Module({
  imports: [PostmortemsModule],
  providers: [PostmortemNarrativeProcessor, PostmortemNarrativeWriter],
})
export class PostmortemsWorkerModule {}
