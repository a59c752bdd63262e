import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';

export class CreateOrganizationDto {
  @ApiProperty({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$', example: 'acme-eu' })
  @IsString()
  @Matches(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { message: 'id must be 1-63 lower-case letters, digits or inner hyphens' })
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 256, example: 'Acme Europe' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 256)
  displayName!: string;
}
