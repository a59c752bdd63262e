import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { ListQueryDto, IsOptionalNonNull } from '@svc/platform';
import { INTEGRATION_TYPES } from '../catalog/integration-types';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const TYPE_IDS = INTEGRATION_TYPES.map((t) => t.id);

export class CreateIntegrationDto {
  @ApiProperty({ enum: TYPE_IDS })
  @IsString()
  @IsIn(TYPE_IDS)
  type!: string;

  @ApiProperty({ minLength: 1, maxLength: 256 })
  @Transform(trim)
  @IsString()
  @Length(1, 256)
  name!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "Validated against the type's configSchema" })
  @IsOptionalNonNull()
  @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    writeOnly: true,
    description: "Validated against the type's credentialsSchema; write-only, stored encrypted",
  })
  @IsOptionalNonNull()
  @IsObject()
  credentials?: Record<string, unknown>;
}

export class UpdateIntegrationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 256 })
  @IsOptionalNonNull()
  @Transform(trim)
  @IsString()
  @Length(1, 256)
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replaces the whole config' })
  @IsOptionalNonNull()
  @IsObject()
  config?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    writeOnly: true,
    description: 'Replaces the credentials; null removes them',
  })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsObject()
  credentials?: Record<string, unknown> | null;
}

export class ListIntegrationsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ enum: TYPE_IDS })
  @IsOptionalNonNull()
  @IsIn(TYPE_IDS)
  type?: string;

  @ApiPropertyOptional()
  @IsOptionalNonNull()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  enabled?: boolean;
}

/** What the provider puts on the browser's way back from an OAuth install. */
export class ConnectCallbackQueryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 2048, description: 'The authorization code' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  code?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 2048, description: 'The state the connect route issued' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  state?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: 'Set by the provider when the install was not authorized' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  error?: string;
}
