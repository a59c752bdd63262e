import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  ListQueryDto,
  OrganizationContext,
  RequirePermission,
  UuidParam,
} from '@svc/platform';
import { ApiTokensService } from './api-tokens.service';
import { CreateApiTokenDto } from './dto/api-token.dto';
import { ApiTokenPage, CreatedApiTokenView } from './dto/api-token.view';

/** Managed by people only: a token cannot mint, list or revoke tokens. */
@ApiTags('api-tokens')
@Controller('api/v1/api-tokens')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @RequirePermission('api-tokens:write', { tokens: false })
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreatedApiTokenView, description: 'The token is in `token`, shown this once' })
  @ApiErrors({ status: 409, description: 'API tokens are switched off by Policy' })
  create(
    @Body() body: CreateApiTokenDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<CreatedApiTokenView> {
    return this.tokens.mint(organization.id, organization.membership.role, body, audit);
  }

  /** Every token of the Organization, newest first, without the token values. */
  @RequirePermission('api-tokens:read', { tokens: false })
  @Get()
  @ApiOkResponse({ type: ApiTokenPage })
  list(@Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<ApiTokenPage> {
    return this.tokens.list(organization.id, query);
  }

  @RequirePermission('api-tokens:write', { tokens: false })
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async revoke(
    @UuidParam('id') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.tokens.revoke(organization.id, id, audit);
  }
}
