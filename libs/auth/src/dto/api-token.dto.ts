import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import { IsRfc3339, ROLES, Role } from '@svc/platform';

export class CreateApiTokenDto {
  @ApiProperty({ minLength: 1, maxLength: 128, example: 'audit exporter' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString() @Length(1, 128)
  name!: string;

  @ApiProperty({ enum: ROLES, description: 'No higher than the minter\'s role' })
  @IsIn(ROLES)
  role!: Role;

  @ApiProperty({ format: 'date-time', description: 'In the future, at most 366 days ahead' })
  @IsRfc3339()
  expiresAt!: string;
}

export class ApiTokenView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ format: 'uuid' }) createdBy!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt!: string | null;
}

export class CreatedApiTokenView extends ApiTokenView {
  @ApiProperty({ description: 'The token itself: shown this once, never again' }) token!: string;
}

export class ApiTokenPage {
  @ApiProperty({ type: [ApiTokenView] }) items!: ApiTokenView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}
