import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, OrganizationContext, permissionsOf, RequirePermission } from '@svc/platform';
import { PermissionsView } from './dto/permissions.view';

@ApiTags('organizations')
@Controller('api/v1/permissions')
export class PermissionsController {
  /** The caller's role in the resolved Organization and every permission it holds. */
  @RequirePermission('organizations:read')
  @Get()
  @ApiOkResponse({ type: PermissionsView })
  get(@CurrentOrganization() organization: OrganizationContext): PermissionsView {
    return { role: organization.membership.role, permissions: permissionsOf(organization.membership.role) };
  }
}
