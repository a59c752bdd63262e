import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '@svc/platform';
import type { InvestigationStatus } from '../investigation.entity';

const STATUSES: InvestigationStatus[] = ['queued', 'investigating', 'needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

export class OpenInvestigationDto {
  @ApiProperty({ format: 'uuid', description: 'The incident to investigate' })
  @IsUUID('all')
  incidentId!: string;
}

class InvestigationFilterDto {
  @ApiPropertyOptional({ enum: STATUSES })
  @IsOptional()
  @IsIn(STATUSES)
  status?: InvestigationStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  incidentId?: string;

  @ApiPropertyOptional({ type: String, description: 'Comma-separated incident ids, up to 100: the investigations of any of them' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((id) => id.trim()) : value))
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'incidentIds must be comma-separated UUIDs' })
  incidentIds?: string[];

  @ApiPropertyOptional({ enum: ['investigation', 'turn'], description: 'investigation: opened on an incident; turn: a conversation turn' })
  @IsOptional()
  @IsIn(['investigation', 'turn'])
  kind?: 'investigation' | 'turn';
}

export class ListInvestigationsQueryDto extends IntersectionType(InvestigationFilterDto, ListQueryDto) {}
