import { Module } from '@nestjs/common';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { InvestigationsModule } from '@svc/investigations';
import { OutboundModule, QueueModule, ScopedRepositoryModule } from '@svc/platform';
import { ChatEvent } from './chat/chat-event.entity';
import { ChatIntakeService } from './chat/chat-intake.service';
import { ChatPoster } from './chat/chat-poster';
import { ChatRecoveryController } from './chat/chat-recovery.controller';
import { ChatReply } from './chat/chat-reply.entity';
import { ChatThread } from './chat/chat-thread.entity';
import { ChatWebhookController } from './chat/chat-webhook.controller';
import { ChatWebhookHandler } from './chat/chat-webhook.handler';
import { ChatRepository } from './chat/chat.repository';
import { ChatService } from './chat/chat.service';
import { ConversationMessage } from './conversation-message.entity';
import { ConversationTurn } from './conversation-turn.entity';
import { Conversation } from './conversation.entity';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { CHAT_EVENT_JOB, CHAT_REPLY_JOB, CONVERSATIONS_QUEUE, ConversationsService, TURN_ENDED_JOB } from './conversations.service';

/** The entities this library owns, for a DataSource built outside Nest (tests, tools). */
export const CONVERSATIONS_ENTITIES = [Conversation, ConversationMessage, ConversationTurn, ChatEvent, ChatThread, ChatReply];

/** Conversations and chat as services: what the API and the worker share. */
@Module({
  imports: [
    ScopedRepositoryModule.forFeature(CONVERSATIONS_ENTITIES),
    QueueModule.forFeature(CONVERSATIONS_QUEUE, [TURN_ENDED_JOB, CHAT_EVENT_JOB, CHAT_REPLY_JOB]),
    IncidentsModule,
    InvestigationsModule,
    IntegrationsModule,
    OutboundModule,
  ],
  providers: [ConversationsService, ConversationsRepository, ChatRepository, ChatPoster, ChatService],
  exports: [ConversationsService, ConversationsRepository, ChatService, ChatRepository, IntegrationsModule],
})
export class ConversationsCoreModule {}

/** The API's side: the conversation routes, chat recovery, and the chat event webhook. */
@Module({
  imports: [ConversationsCoreModule],
  controllers: [ConversationsController, ChatWebhookController, ChatRecoveryController],
  providers: [ChatIntakeService, ChatWebhookHandler],
  exports: [ConversationsCoreModule],
})
export class ConversationsModule {}
