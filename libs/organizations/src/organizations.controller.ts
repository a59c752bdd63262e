import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { auditContext, AuditService, requestOrigin } from '@svc/audit';
import { DataSource } from 'typeorm';
import { RequirePermission, SignedIn } from '@svc/platform';
import { CurrentPrincipal, Principal } from '@svc/auth/principal';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationList, OrganizationView } from './organization-view';
import { OrganizationsService } from './organizations.service';

@ApiTags('organizations')
@ApiCookieAuth('session')
@Controller('api/v1/organizations')
export class OrganizationsController {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The Organizations the caller belongs to, with the caller's membership and role in each. */
  @SignedIn()
  @Get()
  @ApiOkResponse({ type: OrganizationList })
  async list(@CurrentPrincipal() principal: Principal): Promise<OrganizationList> {
    return { organizations: await this.organizations.organizationsOfUser(principal.user.id) };
  }

  /**
   * A new Organization with the caller as its Admin. The caller must be an Admin of the
   * Organization the request resolves to (header or active one).
   */
  @RequirePermission('organizations:create', { tokens: false })
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: OrganizationView })
  @ApiConflictResponse({ description: 'The id is taken' })
  create(@Body() body: CreateOrganizationDto, @CurrentPrincipal() principal: Principal, @Req() req: Request): Promise<OrganizationView> {
    return this.dataSource.transaction(async (manager) => {
      const organization = await this.organizations.createWithMember(manager, body, principal.user.id, 'admin');
      await this.audit.record(manager, organization.id, auditContext(requestOrigin(req), principal.user), {
        action: 'organization.create', targetKind: 'organization', targetId: organization.id, detail: { displayName: organization.displayName },
      });
      return organization;
    });
  }
}
