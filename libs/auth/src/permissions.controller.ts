import { Controller, Get, OnModuleInit, Optional } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, LeanRoutes, OrganizationContext, permissionsOf, RequirePermission } from '@svc/platform';
import { AccessGuard } from './access.guard';
import { PermissionsView } from './dto/permissions.view';

/**
 * What the caller may do in the resolved Organization. A console reads it on every page, so
 * `GET` is also answered as a lean route (ahead of Express's and Nest's routers), after the same
 * access guard; a request with a query string or a body falls through to this controller.
 */
@ApiTags('organizations')
@Controller('api/v1/permissions')
export class PermissionsController implements OnModuleInit {
  constructor(
    private readonly access: AccessGuard,
    // Absent where no HTTP server runs (the worker loads the module for its services).
    @Optional() private readonly leanRoutes?: LeanRoutes,
  ) {}

  onModuleInit(): void {
    this.access.registerLeanRead(this.leanRoutes, '/api/v1/permissions', PermissionsController.prototype.get, (req) => this.get(req.organization!));
  }

  /** The caller's role in the resolved Organization and every permission it holds. */
  @RequirePermission('organizations:read')
  @Get()
  @ApiOkResponse({ type: PermissionsView })
  get(@CurrentOrganization() organization: OrganizationContext): PermissionsView {
    return { role: organization.membership.role, permissions: permissionsOf(organization.membership.role) };
  }
}
