import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { OrganizationJobData, unwrapOrganizationJob } from '@svc/platform';
import { CONVERSATIONS_QUEUE, ConversationsService, TURN_ENDED_JOB } from '../conversations.service';

/** A turn's investigation ended: its answer is appended and the conversation's next turn starts. */
@Processor(CONVERSATIONS_QUEUE)
export class TurnEndedProcessor {
  constructor(private readonly conversations: ConversationsService) {}

  @Process({ name: TURN_ENDED_JOB })
  async turnEnded(job: Job<OrganizationJobData<{ conversationId: string }>>): Promise<void> {
    const { organizationId, payload } = unwrapOrganizationJob(job);
    await this.conversations.turnEnded(organizationId, payload.conversationId);
  }
}
