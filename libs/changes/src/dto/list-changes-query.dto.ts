import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { IsRfc3339, ListQueryDto } from '@svc/platform';
import { CHANGE_KINDS, ChangeKind } from '../formats/normalized-change';

class ChangeFilterDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Occurred at or after' })
  @IsOptional()
  @IsRfc3339()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Occurred before' })
  @IsOptional()
  @IsRfc3339()
  until?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256, description: 'The service changed (without regard to case)' })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  service?: string;

  @ApiPropertyOptional({ enum: CHANGE_KINDS })
  @IsOptional()
  @IsIn(CHANGE_KINDS)
  kind?: ChangeKind;

  @ApiPropertyOptional({ format: 'uuid', description: 'The changes integration it came through' })
  @IsOptional()
  @IsUUID()
  integrationId?: string;
}

export class ListChangesQueryDto extends IntersectionType(ChangeFilterDto, ListQueryDto) {}
