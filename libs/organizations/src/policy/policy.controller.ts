import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { auditContext, AuditService, requestOrigin } from '@svc/audit';
import { Actor, CurrentActor, CurrentOrganization, OrganizationContext } from '@svc/auth/principal';
import { RequirePermission } from '@svc/platform';
import { PolicyDto } from './policy.dto';
import { PolicyService } from './policy.service';

@ApiTags('policy')
@ApiCookieAuth('session')
@Controller('api/v1/policy')
export class PolicyController {
  constructor(private readonly policies: PolicyService, private readonly audit: AuditService, @InjectDataSource() private readonly dataSource: DataSource) {}

  @RequirePermission('policy:read')
  @Get()
  @ApiOkResponse({ type: PolicyDto })
  get(@CurrentOrganization() organization: OrganizationContext): Promise<PolicyDto> {
    return this.policies.get(organization.id);
  }

  /** Replaces the whole Policy (every field required). */
  @RequirePermission('policy:write')
  @Put()
  @ApiOkResponse({ type: PolicyDto })
  async put(@Body() body: PolicyDto, @CurrentOrganization() organization: OrganizationContext, @CurrentActor() actor: Actor, @Req() req: Request): Promise<PolicyDto> {
    return this.dataSource.transaction(async (manager) => {
      const previous = await this.policies.replace(manager, organization.id, body, actor.id);
      await this.audit.record(manager, organization.id, auditContext(requestOrigin(req), actor), {
        action: 'policy.update', targetKind: 'policy', targetId: organization.id, detail: { before: previous, after: body },
      });
      return this.policies.get(organization.id, manager);
    });
  }
}
