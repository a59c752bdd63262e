import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  CurrentOrganization,
  CurrentPrincipal,
  CursorCodec,
  fixedListPage,
  ListQueryDto,
  OrganizationContext,
  Principal,
  RequirePermission,
} from '@svc/platform';
import { INTEGRATION_TYPES } from './catalog/integration-types';
import { ChatConnectService } from './connect/chat-connect.service';
import { IntegrationTypeList } from './dto/integration-type.view';

/** Where to send the browser to install the app. */
export class ConnectStartView {
  @ApiProperty({ format: 'uri', description: "The provider's authorization page, with client id, scopes, redirect URI and state" })
  authorizationUrl!: string;
}

@ApiTags('integrations')
@Controller('api/v1/integration-types')
export class IntegrationTypesController {
  constructor(
    private readonly cursors: CursorCodec,
    private readonly connects: ChatConnectService,
  ) {}

  /** Every integration type with its capabilities and the JSON Schemas of its config and credentials, paged like every listing. */
  @RequirePermission('integrations:read')
  @Get()
  @ApiOkResponse({ type: IntegrationTypeList })
  list(@Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): IntegrationTypeList {
    return fixedListPage(INTEGRATION_TYPES, (type) => type.id, this.cursors, { scope: organization.id, collection: 'integration-types' }, query);
  }

  /**
   * Starts the provider's OAuth v2 install for types that connect that way (chat): the browser goes
   * to `authorizationUrl`, whose state is bound to this session and Organization for 10 minutes.
   */
  @RequirePermission('integrations:write', { tokens: false })
  @Post(':type/connect')
  @HttpCode(200)
  @ApiOkResponse({ type: ConnectStartView })
  @ApiErrors(
    { status: 400, description: 'The type does not connect by OAuth, or OAuth is not configured on this deployment' },
    { status: 404, description: 'Unknown integration type' },
  )
  connect(@Param('type') typeId: string, @CurrentOrganization() organization: OrganizationContext, @CurrentPrincipal() principal: Principal): ConnectStartView {
    return this.connects.start(typeId, organization.id, principal.session.id);
  }
}
