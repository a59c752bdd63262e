import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { OrganizationJobData, unwrapOrganizationJob } from '@svc/platform';
import { ChatEventPayload } from '../chat/chat-intake.service';
import { ChatService } from '../chat/chat.service';
import { CHAT_EVENT_JOB, CHAT_REPLY_JOB, CONVERSATIONS_QUEUE } from '../conversations.service';

/** Chat events taken in by the webhook, and the replies of ended chat turns. */
@Processor(CONVERSATIONS_QUEUE)
export class ChatProcessor {
  constructor(private readonly chat: ChatService) {}

  @Process({ name: CHAT_EVENT_JOB })
  async event(job: Job<OrganizationJobData<ChatEventPayload>>): Promise<void> {
    const { organizationId, payload } = unwrapOrganizationJob(job);
    await this.chat.handleEvent(organizationId, payload);
  }

  @Process({ name: CHAT_REPLY_JOB })
  async reply(job: Job<OrganizationJobData<{ conversationId: string; messageSequence: number; investigationId: string }>>): Promise<void> {
    const { organizationId, payload } = unwrapOrganizationJob(job);
    await this.chat.postReply(organizationId, payload);
  }
}
