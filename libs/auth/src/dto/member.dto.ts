import { ApiProperty, ApiPropertyOptional, IntersectionType, PickType } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Length } from 'class-validator';
import { ROLES, Role, IsOptionalNonNull } from '@svc/platform';
import { NewLocalUserDto } from './bootstrap.dto';

export class RoleDto {
  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: Role;
}

/** POST /api/v1/local-users */
export class CreateLocalUserDto extends IntersectionType(NewLocalUserDto, RoleDto) {}

/** PATCH /api/v1/members/{membership|user}: any subset. */
export class UpdateMemberDto {
  @ApiPropertyOptional({ enum: ROLES })
  @IsOptionalNonNull()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ description: 'Disables (true) or re-enables (false) the account; disabling ends its sessions' })
  @IsOptionalNonNull()
  @IsBoolean()
  disabled?: boolean;
}

/** PUT /api/v1/local-users/{user}/password */
export class SetPasswordDto extends PickType(NewLocalUserDto, ['password'] as const) {}

/** PUT /api/v1/auth/local/password */
export class ChangePasswordDto {
  @ApiProperty({ writeOnly: true })
  @IsString()
  @Length(1, 1024)
  currentPassword!: string;

  @ApiProperty({ writeOnly: true, minLength: 12, maxLength: 1024 })
  @IsString()
  @Length(12, 1024, { message: 'newPassword must be 12 to 1024 characters' })
  newPassword!: string;
}
