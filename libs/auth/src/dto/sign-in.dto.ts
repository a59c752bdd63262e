import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class SignInDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @Length(1, 320)
  email!: string;

  @ApiProperty({ writeOnly: true })
  @IsString()
  @Length(1, 1024)
  password!: string;
}
