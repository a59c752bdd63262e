import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  InvalidInputError,
  OrganizationContext,
  RequirePermission,
  UuidParam,
} from '@svc/platform';
import { PostedMessageView } from '../dto/conversation.view';
import { ChatService } from './chat.service';

function sequenceParam(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new InvalidInputError('Invalid input: sequence must be a positive integer');
  return Number(value);
}

@ApiTags('conversations')
@Controller('api/v1/chat/conversations')
export class ChatRecoveryController {
  constructor(private readonly chat: ChatService) {}

  /**
   * Re-drives the terminal processing of one chat message (its user message's sequence): a failed
   * turn gets a new turn, a reply that could not be posted is posted again. Audited.
   */
  @RequirePermission('chat:recover')
  @Post(':conversation/messages/:sequence/recover')
  @HttpCode(200)
  @ApiParam({ name: 'sequence', type: 'integer', description: "The user message's sequence" })
  @ApiOkResponse({ type: PostedMessageView, description: 'The message and the turn it now has' })
  @ApiErrors(
    { status: 404, description: 'Unknown chat conversation or message, or another Organization’s' },
    { status: 409, description: 'The message is being processed, or its processing did not fail' },
  )
  recover(
    @UuidParam('conversation') conversationId: string,
    @Param('sequence') sequence: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<PostedMessageView> {
    return this.chat.recover(organization.id, conversationId, sequenceParam(sequence), audit);
  }
}
