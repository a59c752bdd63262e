export * from './catalog/integration-types';
export * from './integrations.module';
export * from './integrations.service';
export * from './webhooks/chat-signing-keys';
export * from './webhooks/webhook-authenticator';
export * from './webhooks/webhook-secret';
export * from './webhooks/webhook-credentials.repository';
export * from './kubernetes-access';
