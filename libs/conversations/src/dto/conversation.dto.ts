import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { IsOptionalNonNull, IsRfc3339, ListQueryDto } from '@svc/platform';

const WINDOW_FROM = 'Inclusive start of the question window (RFC 3339, any offset; normalized to UTC microseconds). Only with a message.';
const WINDOW_UNTIL = 'Exclusive end of the question window, before or at the time the message is accepted. Only with a message.';

export class OpenConversationDto {
  @ApiProperty({ minLength: 1, maxLength: 512 })
  @IsString()
  @Length(1, 512)
  subject!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The incident the conversation is about' })
  @IsOptionalNonNull()
  @IsUUID('all')
  incidentId?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 8192, description: 'The first message: it starts the first turn' })
  @IsOptionalNonNull()
  @IsString()
  @Length(1, 8192)
  message?: string;

  @ApiPropertyOptional({ format: 'date-time', description: WINDOW_FROM })
  @IsOptionalNonNull()
  @IsRfc3339()
  windowFrom?: string;

  @ApiPropertyOptional({ format: 'date-time', description: WINDOW_UNTIL })
  @IsOptionalNonNull()
  @IsRfc3339()
  windowUntil?: string;
}

export class PostMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 8192 })
  @IsString()
  @Length(1, 8192)
  message!: string;

  @ApiPropertyOptional({ format: 'date-time', description: WINDOW_FROM })
  @IsOptionalNonNull()
  @IsRfc3339()
  windowFrom?: string;

  @ApiPropertyOptional({ format: 'date-time', description: WINDOW_UNTIL })
  @IsOptionalNonNull()
  @IsRfc3339()
  windowUntil?: string;
}

class ConversationFilterDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  incidentId?: string;

  @ApiPropertyOptional({ enum: ['web', 'chat'] })
  @IsOptional()
  @IsIn(['web', 'chat'])
  source?: 'web' | 'chat';
}

export class ListConversationsQueryDto extends IntersectionType(ConversationFilterDto, ListQueryDto) {}
