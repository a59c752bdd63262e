import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { IsOptionalNonNull } from '@svc/platform';

export const MIN_BOOTSTRAP_LIFETIME_SECONDS = 60;
export const MAX_BOOTSTRAP_LIFETIME_SECONDS = 2_592_000;
export const DEFAULT_BOOTSTRAP_LIFETIME_SECONDS = 86_400;

export class CreateBootstrapTokenDto {
  @ApiProperty({ minLength: 1, maxLength: 128, example: 'eu-west datacenter', description: 'The name the relay registered with it gets' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 128)
  name!: string;

  @ApiPropertyOptional({ minimum: MIN_BOOTSTRAP_LIFETIME_SECONDS, maximum: MAX_BOOTSTRAP_LIFETIME_SECONDS, default: DEFAULT_BOOTSTRAP_LIFETIME_SECONDS })
  @IsOptionalNonNull()
  @IsInt()
  @Min(MIN_BOOTSTRAP_LIFETIME_SECONDS)
  @Max(MAX_BOOTSTRAP_LIFETIME_SECONDS)
  expiresInSeconds?: number;
}
