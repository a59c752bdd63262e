import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { ListQueryDto } from '@svc/platform';
import { INTEGRATION_TYPES } from '../catalog/integration-types';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const TYPE_IDS = INTEGRATION_TYPES.map((t) => t.id);

export class CreateIntegrationDto {
  @ApiProperty({ enum: TYPE_IDS })
  @IsString() @IsIn(TYPE_IDS)
  type!: string;

  @ApiProperty({ minLength: 1, maxLength: 256 })
  @Transform(trim) @IsString() @Length(1, 256)
  name!: string;

  @ApiPropertyOptional({ type: Object, description: 'Validated against the type\'s configSchema' })
  @IsOptional() @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ type: Object, writeOnly: true, description: 'Validated against the type\'s credentialsSchema; write-only, stored encrypted' })
  @IsOptional() @IsObject()
  credentials?: Record<string, unknown>;
}

export class UpdateIntegrationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 256 })
  @IsOptional() @Transform(trim) @IsString() @Length(1, 256)
  name?: string;

  @ApiPropertyOptional({ type: Object, description: 'Replaces the whole config' })
  @IsOptional() @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ type: Object, nullable: true, writeOnly: true, description: 'Replaces the credentials; null removes them' })
  @ValidateIf((_, v) => v !== undefined && v !== null) @IsObject()
  credentials?: Record<string, unknown> | null;
}

export class ListIntegrationsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: TYPE_IDS })
  @IsOptional() @IsIn(TYPE_IDS)
  type?: string;

  @ApiPropertyOptional()
  @IsOptional() @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)) @IsBoolean()
  enabled?: boolean;
}

export class IntegrationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: TYPE_IDS }) type!: string;
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: Object }) config!: Record<string, unknown>;
  @ApiProperty({ description: 'Credentials are stored (never returned)' }) hasCredentials!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where the type receives alerts; null for types that do not' }) webhookUrl!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) webhookSecretRotatedAt!: string | null;
  @ApiProperty({ type: Object, nullable: true, description: '{at, outcome, detail} of the last verify' }) lastVerification!: { at: string; outcome: string; detail: string | null } | null;
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
