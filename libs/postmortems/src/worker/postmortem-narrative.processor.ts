import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { OrganizationJobData, unwrapOrganizationJob } from '@svc/platform';
import { NarrativeJob, POSTMORTEMS_QUEUE, WRITE_NARRATIVE_JOB } from '../postmortems.service';
import { NarrativeOutcome, PostmortemNarrativeWriter } from './postmortem-narrative.writer';

/** Writes a postmortem's narrative; idempotent, since it applies only to the revision it was queued for. */
@Processor(POSTMORTEMS_QUEUE)
export class PostmortemNarrativeProcessor {
  constructor(private readonly writer: PostmortemNarrativeWriter) {}

  @Process({ name: WRITE_NARRATIVE_JOB, concurrency: 2 })
  async run(job: Job<OrganizationJobData<NarrativeJob>>): Promise<{ outcome: NarrativeOutcome }> {
    const { organizationId, payload } = unwrapOrganizationJob(job);
    return { outcome: await this.writer.write(organizationId, payload) };
  }
}
