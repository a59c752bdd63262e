import { Module } from '@nestjs/common';
import { ChatConnectService } from './connect/chat-connect.service';
import { DatastoreClient } from '@svc/datastores';
import { OutboundClient, OutboundModule, ScopedRepositoryModule } from '@svc/platform';
import { RelaysModule } from '@svc/relays';
import { IntegrationSchemaValidator } from './catalog/schema-validator';
import { Integration } from './integration.entity';
import { IntegrationVerifier } from './integration-verifier';
import { IntegrationTypesController } from './integration-types.controller';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsService } from './integrations.service';
import { ChatSigningKeys } from './webhooks/chat-signing-keys';
import { WebhookAuthenticator } from './webhooks/webhook-authenticator';
import { WebhookCredentialsRepository } from './webhooks/webhook-credentials.repository';

@Module({
  imports: [ScopedRepositoryModule.forFeature([Integration]), OutboundModule, RelaysModule],
  controllers: [IntegrationTypesController, IntegrationsController],
  providers: [
    ChatConnectService,
    IntegrationsService,
    IntegrationSchemaValidator,
    IntegrationVerifier,
    { provide: DatastoreClient, useFactory: (outbound: OutboundClient) => new DatastoreClient(outbound), inject: [OutboundClient] },
    WebhookCredentialsRepository,
    WebhookAuthenticator,
    ChatSigningKeys,
  ],
  exports: [IntegrationsService, WebhookAuthenticator, ChatSigningKeys],
})
export class IntegrationsModule {}
