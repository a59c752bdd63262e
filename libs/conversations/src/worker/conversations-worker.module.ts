import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations.module';
import { TurnEndedProcessor } from './turn-ended.processor';

/** The worker's side of conversations: answering ended turns and starting the next. */
@Module({
  imports: [ConversationsModule],
  providers: [TurnEndedProcessor],
})
export class ConversationsWorkerModule {}
