import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsRfc3339, ListQueryDto } from '@svc/platform';

/** Filters shared by the listing and the export. */
export class AuditFilterDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive start of occurredAt' })
  @IsOptional()
  @IsRfc3339()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive end of occurredAt' })
  @IsOptional()
  @IsRfc3339()
  until?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 256)
  actorId?: string;

  @ApiPropertyOptional({ example: 'session.sign_in' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  action?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  targetKind?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 256)
  targetId?: string;

  @ApiPropertyOptional({ enum: ['allowed', 'denied', 'failed'] })
  @IsOptional()
  @IsIn(['allowed', 'denied', 'failed'])
  outcome?: 'allowed' | 'denied' | 'failed';
}

export class AuditListQueryDto extends IntersectionType(AuditFilterDto, ListQueryDto) {}

export class AuditExportQueryDto extends AuditFilterDto {
  @ApiPropertyOptional({ enum: ['ndjson', 'csv'], default: 'ndjson' })
  @IsOptional()
  @IsIn(['ndjson', 'csv'])
  format?: 'ndjson' | 'csv';
}
