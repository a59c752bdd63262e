import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboundModule } from '@svc/platform';
import { IntegrationSchemaValidator } from './catalog/schema-validator';
import { Integration } from './integration.entity';
import { IntegrationVerifier } from './integration-verifier';
import { IntegrationTypesController } from './integration-types.controller';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsService } from './integrations.service';

@Module({
  imports: [TypeOrmModule.forFeature([Integration]), OutboundModule],
  controllers: [IntegrationTypesController, IntegrationsController],
  providers: [IntegrationsService, IntegrationSchemaValidator, IntegrationVerifier],
  exports: [IntegrationsService],
})
export class IntegrationsModule {}
