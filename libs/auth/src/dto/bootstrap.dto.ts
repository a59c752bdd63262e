import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsEmail, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { CreateOrganizationDto } from '@svc/organizations';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class NewLocalUserDto {
  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  @Transform(trim)
  @IsString()
  @MaxLength(320)
  @IsEmail({ allow_display_name: false, require_tld: false })
  email!: string;

  @ApiProperty({ minLength: 1, maxLength: 256, example: 'Ada Lovelace' })
  @Transform(trim)
  @IsString()
  @Length(1, 256)
  name!: string;

  @ApiProperty({ minLength: 12, maxLength: 1024, writeOnly: true })
  @IsString()
  @Length(12, 1024, { message: 'password must be 12 to 1024 characters' })
  password!: string;
}

export class BootstrapDto {
  @ApiProperty({ type: CreateOrganizationDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => CreateOrganizationDto)
  organization!: CreateOrganizationDto;

  @ApiProperty({ type: NewLocalUserDto })
  @IsDefined()
  @ValidateNested()
  @Type(() => NewLocalUserDto)
  user!: NewLocalUserDto;
}
