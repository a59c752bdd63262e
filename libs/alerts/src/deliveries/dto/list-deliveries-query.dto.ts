import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '@svc/platform';

class DeliveryFilterDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  integrationId?: string;
}

export class ListDeliveriesQueryDto extends IntersectionType(DeliveryFilterDto, ListQueryDto) {}
