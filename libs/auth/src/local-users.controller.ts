import { Body, Controller, HttpCode, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, AuditContext, CurrentAuditContext, CurrentOrganization, OrganizationContext, RequirePermission, UuidParam } from '@svc/platform';
import { CreateLocalUserDto, SetPasswordDto } from './dto/member.dto';
import { LocalUserView } from './dto/member.view';
import { MembersService } from './members.service';

@ApiTags('members')
@Controller('api/v1/local-users')
export class LocalUsersController {
  constructor(private readonly members: MembersService) {}

  /** A new account with a password, and its membership in the Organization. */
  @RequirePermission('members:write')
  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: LocalUserView })
  @ApiErrors({ status: 409, description: 'The email belongs to an existing user' })
  create(
    @Body() body: CreateLocalUserDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<LocalUserView> {
    return this.members.createLocalUser(organization.id, body, audit);
  }

  /** Sets a member's password; every session of that user ends. */
  @RequirePermission('members:write')
  @Put(':user/password')
  @HttpCode(204)
  @ApiNoContentResponse()
  async setPassword(
    @UuidParam('user') user: string,
    @Body() body: SetPasswordDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<void> {
    await this.members.setPassword(organization.id, user, body.password, audit);
  }
}
