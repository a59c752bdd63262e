import { Controller, Get } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  CurrentOrganization, OrganizationContext, Permission, PERMISSIONS, permissionsOf, RequirePermission, Role, ROLES,
} from '@svc/platform';

export class PermissionsView {
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ type: [String], enum: Object.keys(PERMISSIONS) }) permissions!: Permission[];
}

@ApiTags('organizations')
@ApiCookieAuth('session')
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
