import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
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
}

export class ListInvestigationsQueryDto extends IntersectionType(InvestigationFilterDto, ListQueryDto) {}
