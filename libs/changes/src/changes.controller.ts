import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentOrganization, ListQueryDto, OrganizationContext, RequirePermission, UuidParam } from '@svc/platform';
import { ChangesService } from './changes.service';
import { ChangePage, ChangeView, IncidentChangePage } from './dto/change.view';
import { ListChangesQueryDto } from './dto/list-changes-query.dto';

/** Changes reported by deploy and configuration tools, newest first. */
@ApiTags('changes')
@Controller('api/v1/changes')
export class ChangesController {
  constructor(private readonly changes: ChangesService) {}

  /** Newest first; filter by when they occurred, service, kind and integration. */
  @RequirePermission('changes:read')
  @Get()
  @ApiOkResponse({ type: ChangePage })
  list(@Query() query: ListChangesQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<ChangePage> {
    const { limit, cursor, ...filter } = query;
    return this.changes.list(organization.id, filter, { limit, cursor });
  }

  @RequirePermission('changes:read')
  @Get(':change')
  @ApiOkResponse({ type: ChangeView })
  get(@UuidParam('change') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<ChangeView> {
    return this.changes.get(organization.id, id);
  }
}

/** The changes around an incident: the hour before its first alert and its duration, on the services it concerns. */
@ApiTags('changes')
@Controller('api/v1/incidents')
export class IncidentChangesController {
  constructor(private readonly changes: ChangesService) {}

  @RequirePermission('changes:read')
  @Get(':incident/changes')
  @ApiOkResponse({ type: IncidentChangePage })
  around(
    @UuidParam('incident') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<IncidentChangePage> {
    return this.changes.aroundIncident(organization.id, id, query);
  }
}
