// The worker's processor is its own entry, `@svc/conversations/worker`.
export * from './conversations.module';
export * from './conversations.service';
export * from './conversations.repository';
export * from './dto/conversation.view';
export * from './chat/chat-signature';
export * from './chat/chat.service';
export * from './chat/chat.repository';
