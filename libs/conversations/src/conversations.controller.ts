import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  listingBody,
  ListQueryDto,
  OrganizationContext,
  RequirePermission,
  UuidParam,
  ApiErrors,
} from '@svc/platform';
import { ListConversationsQueryDto, OpenConversationDto, PostMessageDto } from './dto/conversation.dto';
import { ConversationDetailView, ConversationPage, ConversationTurnPage, OpenedConversationView, PostedMessageView } from './dto/conversation.view';
import { ConversationsService } from './conversations.service';

@ApiTags('conversations')
@Controller('api/v1/conversations')
export class ConversationsController {
  constructor(private readonly conversations: ConversationsService) {}

  /** Opens a conversation; a first message queues its first turn. */
  @RequirePermission('conversations:write')
  @Post()
  @ApiCreatedResponse({ type: OpenedConversationView })
  @ApiErrors({ status: 404, description: 'Unknown incident, or another Organization’s' })
  open(
    @Body() body: OpenConversationDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<OpenedConversationView> {
    return this.conversations.open(organization.id, body, audit);
  }

  /** Newest first; filter by incident and source. */
  @RequirePermission('conversations:read')
  @Get()
  @ApiOkResponse({ type: ConversationPage })
  list(@Query() query: ListConversationsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<ConversationPage> {
    const { limit, cursor, ...filters } = query;
    return this.conversations.page(organization.id, filters, { limit, cursor });
  }

  /** The conversation and its messages (questions and answers), in sequence order. */
  @RequirePermission('conversations:read')
  @Get(':conversation')
  @ApiOkResponse({ type: ConversationDetailView })
  get(@UuidParam('conversation') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<ConversationDetailView> {
    return this.conversations.detail(organization.id, id);
  }

  /** A message: it starts a turn now, or when the running turn ends. */
  @RequirePermission('conversations:write')
  @Post(':conversation/messages')
  @ApiCreatedResponse({ type: PostedMessageView })
  message(
    @UuidParam('conversation') id: string,
    @Body() body: PostMessageDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<PostedMessageView> {
    return this.conversations.postMessage(organization.id, id, body, audit);
  }

  /** The turns by number (alias paths answer `{items, next}`). */
  @RequirePermission('conversations:read', { organizationHeader: 'required' })
  @Get(':conversation/turns')
  @ApiHeader({ name: 'X-Svc-Organization', required: true })
  @ApiOkResponse({ type: ConversationTurnPage })
  async turns(
    @UuidParam('conversation') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
    @Req() req: Request,
  ): Promise<ConversationTurnPage> {
    const page = await this.conversations.turnPage(organization.id, id, query);
    return listingBody(req, 'turns', page.turns, page.next) as unknown as ConversationTurnPage;
  }
}
