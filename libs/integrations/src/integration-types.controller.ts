import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  CurrentOrganization,
  CursorCodec,
  fixedListPage,
  InvalidInputError,
  ListQueryDto,
  NotFoundError,
  OrganizationContext,
  RequirePermission,
} from '@svc/platform';
import { INTEGRATION_TYPES, integrationType } from './catalog/integration-types';
import { IntegrationTypeList } from './dto/integration-type.view';

@ApiTags('integrations')
@Controller('api/v1/integration-types')
export class IntegrationTypesController {
  constructor(private readonly cursors: CursorCodec) {}

  /** Every integration type with its capabilities and the JSON Schemas of its config and credentials, paged like every listing. */
  @RequirePermission('integrations:read')
  @Get()
  @ApiOkResponse({ type: IntegrationTypeList })
  list(@Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): IntegrationTypeList {
    return fixedListPage(INTEGRATION_TYPES, (type) => type.id, this.cursors, { scope: organization.id, collection: 'integration-types' }, query);
  }

  /** Starts an OAuth connection for types that connect that way; none of this release's types do. */
  @RequirePermission('integrations:write')
  @Post(':type/connect')
  @ApiErrors({ status: 400, description: 'No integration type of this release connects by OAuth' }, { status: 404, description: 'Unknown integration type' })
  connect(@Param('type') typeId: string): never {
    const type = integrationType(typeId);
    if (!type) throw new NotFoundError('Integration type');
    throw new InvalidInputError(`${type.displayName} integrations do not connect by OAuth: create one with POST /api/v1/integrations and its config`);
  }
}
