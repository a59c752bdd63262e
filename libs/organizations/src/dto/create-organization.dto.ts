import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';
import { ORGANIZATION_ID, ORGANIZATION_ID_PATTERN } from '@svc/platform';

export class CreateOrganizationDto {
  @ApiProperty({ pattern: ORGANIZATION_ID_PATTERN, example: 'acme-eu' })
  @IsString()
  @Matches(ORGANIZATION_ID, { message: 'id must be 1-63 lower-case letters, digits or inner hyphens' })
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 256, example: 'Acme Europe' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 256)
  displayName!: string;
}
