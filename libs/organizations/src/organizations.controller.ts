import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AuditContext, CurrentAuditContext, CurrentPrincipal, ListQueryDto, Principal, RequirePermission, SignedIn } from '@svc/platform';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationList, OrganizationView } from './dto/organization.view';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@Controller('api/v1/organizations')
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  /** The Organizations the caller belongs to, with the caller's membership and role in each. */
  @SignedIn()
  @Get()
  @ApiOkResponse({ type: OrganizationList })
  async list(@Query() query: ListQueryDto, @CurrentPrincipal() principal: Principal): Promise<OrganizationList> {
    const page = await this.organizations.organizationsPageOfUser(principal.user.id, query);
    return { organizations: page.items, next: page.next };
  }

  /**
   * A new Organization with the caller as its Admin. The caller must be an Admin of the
   * Organization the request resolves to (header or active one).
   */
  @RequirePermission('organizations:create', { tokens: false })
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: OrganizationView })
  @ApiErrors({ status: 409, description: 'The id is taken' })
  create(@Body() body: CreateOrganizationDto, @CurrentPrincipal() principal: Principal, @CurrentAuditContext() audit: AuditContext): Promise<OrganizationView> {
    return this.organizations.create(body, principal.user.id, 'admin', audit);
  }
}
