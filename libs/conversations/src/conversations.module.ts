import { Module } from '@nestjs/common';
import { IncidentsModule } from '@svc/incidents';
import { InvestigationsModule } from '@svc/investigations';
import { QueueModule, ScopedRepositoryModule } from '@svc/platform';
import { ConversationMessage } from './conversation-message.entity';
import { ConversationTurn } from './conversation-turn.entity';
import { Conversation } from './conversation.entity';
import { ConversationsController } from './conversations.controller';
import { ConversationsRepository } from './conversations.repository';
import { CONVERSATIONS_QUEUE, ConversationsService, TURN_ENDED_JOB } from './conversations.service';

@Module({
  imports: [
    ScopedRepositoryModule.forFeature([Conversation, ConversationMessage, ConversationTurn]),
    QueueModule.forFeature(CONVERSATIONS_QUEUE, [TURN_ENDED_JOB]),
    IncidentsModule,
    InvestigationsModule,
  ],
  controllers: [ConversationsController],
  providers: [ConversationsService, ConversationsRepository],
  exports: [ConversationsService, ConversationsRepository],
})
export class ConversationsModule {}
