import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { OrganizationJobData, unwrapOrganizationJob } from '@svc/platform';
import { INVESTIGATIONS_QUEUE, RUN_INVESTIGATION_JOB } from '../investigations.service';
import { InvestigationEngine } from './investigation-engine';

/** Investigations one worker process works at once. */
const CONCURRENCY = 4;

@Processor(INVESTIGATIONS_QUEUE)
export class InvestigationProcessor {
  constructor(private readonly engine: InvestigationEngine) {}

  @Process({ name: RUN_INVESTIGATION_JOB, concurrency: CONCURRENCY })
  async run(job: Job<OrganizationJobData<{ investigationId: string }>>): Promise<void> {
    const { organizationId, payload } = unwrapOrganizationJob(job);
    await this.engine.run(organizationId, payload.investigationId, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) });
  }
}
