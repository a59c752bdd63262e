import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import { IsRfc3339, ROLES, Role } from '@svc/platform';

export class CreateApiTokenDto {
  @ApiProperty({ minLength: 1, maxLength: 128, example: 'audit exporter' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 128)
  name!: string;

  @ApiProperty({ enum: ROLES, description: "No higher than the minter's role" })
  @IsIn(ROLES)
  role!: Role;

  @ApiProperty({ format: 'date-time', description: 'In the future, at most 366 days ahead' })
  @IsRfc3339()
  expiresAt!: string;
}
