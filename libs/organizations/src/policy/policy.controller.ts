import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AuditContext, CurrentAuditContext, CurrentOrganization, OrganizationContext, RequirePermission } from '@svc/platform';
import { PolicyDto } from './policy.dto';
import { PolicyService } from './policy.service';

@ApiTags('policy')
@Controller('api/v1/policy')
export class PolicyController {
  constructor(private readonly policies: PolicyService) {}

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
  put(@Body() body: PolicyDto, @CurrentOrganization() organization: OrganizationContext, @CurrentAuditContext() audit: AuditContext): Promise<PolicyDto> {
    return this.policies.update(organization.id, body, audit);
  }
}
