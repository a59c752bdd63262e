import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsRfc3339, ListQueryDto } from '@svc/platform';

class IncidentFilterDto {
  @ApiPropertyOptional({ enum: ['open', 'resolved', 'merged'] })
  @IsOptional()
  @IsIn(['open', 'resolved', 'merged'])
  status?: 'open' | 'resolved' | 'merged';

  @ApiPropertyOptional({ format: 'date-time', description: 'Opened at or after' })
  @IsOptional()
  @IsRfc3339()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Opened before' })
  @IsOptional()
  @IsRfc3339()
  until?: string;

  @ApiPropertyOptional({ enum: ['newest', 'oldest'], default: 'newest', description: 'By when they opened' })
  @IsOptional()
  @IsIn(['newest', 'oldest'])
  order?: 'newest' | 'oldest';
}

export class ListIncidentsQueryDto extends IntersectionType(IncidentFilterDto, ListQueryDto) {}
