import { Module } from '@nestjs/common';
import { ConversationsCoreModule } from '../conversations.module';
import { ChatProcessor } from './chat.processor';
import { TurnEndedProcessor } from './turn-ended.processor';

/** The worker's side of conversations: answering ended turns and starting the next; chat events and replies. */
@Module({
  imports: [ConversationsCoreModule],
  providers: [TurnEndedProcessor, ChatProcessor],
})
export class ConversationsWorkerModule {}
