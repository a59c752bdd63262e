import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INTEGRATION_TYPES } from '../catalog/integration-types';

const TYPE_IDS = INTEGRATION_TYPES.map((t) => t.id);

/** The outcome of the last verify. */
export class LastVerificationView {
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ enum: ['succeeded', 'failed'] }) outcome!: string;
  @ApiProperty({ type: String, nullable: true }) detail!: string | null;
}

export class IntegrationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: TYPE_IDS }) type!: string;
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true }) config!: Record<string, unknown>;
  @ApiProperty({ description: 'Credentials are stored (never returned)' }) hasCredentials!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Where the integration receives its webhook (alert events, or change events for a changes integration); null for types that receive none',
  })
  webhookUrl!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) webhookSecretRotatedAt!: string | null;
  @ApiProperty({ type: LastVerificationView, nullable: true, description: 'The last verify, null before the first' }) lastVerification!: {
    at: string;
    outcome: string;
    detail: string | null;
  } | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
}

export class CreatedIntegrationView extends IntegrationView {
  @ApiPropertyOptional({ description: 'The webhook secret, shown this once (types that receive webhooks)' }) webhookSecret?: string;
}

export class IntegrationPage {
  @ApiProperty({ type: [IntegrationView] }) items!: IntegrationView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class RotationResult {
  @ApiProperty({ description: 'The new webhook secret, shown this once' }) webhookSecret!: string;
  @ApiProperty({ example: 'The previous secret stopped working immediately.' }) effect!: string;
}
