import { Body, Controller, Delete, Get, HttpCode, Patch, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
import { UpdateMemberDto } from './dto/member.dto';
import { MemberPage, MemberView } from './dto/member.view';
import { MembersService } from './members.service';

@ApiTags('members')
@Controller('api/v1/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  /** The Organization's members, oldest membership first. */
  @RequirePermission('members:read')
  @Get()
  @ApiOkResponse({ type: MemberPage })
  list(@Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<MemberPage> {
    return this.members.list(organization.id, query);
  }

  /** `{member}` is the membership id or the user id. */
  @RequirePermission('members:write')
  @Patch(':member')
  @ApiOkResponse({ type: MemberView })
  @ApiErrors({ status: 409, description: 'The last Admin cannot be demoted' })
  update(
    @UuidParam('member') member: string,
    @Body() body: UpdateMemberDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<MemberView> {
    return this.members.update(organization.id, member, body, audit);
  }

  /** Removes the member from the Organization and ends all their sessions. */
  @RequirePermission('members:write')
  @Delete(':member')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiErrors({ status: 409, description: 'The last Admin cannot be removed' })
  async remove(
    @UuidParam('member') member: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.members.remove(organization.id, member, audit);
  }
}
