import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
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
import { ListIncidentsQueryDto } from './dto/incident.dto';
import { AlertEventPage, alertEventView, IncidentPage, IncidentView, incidentView } from './dto/incident.view';
import { MergeIncidentsDto } from './dto/merge-incidents.dto';
import type { Incident } from './incident.entity';
import { IncidentsService } from './incidents.service';

@ApiTags('incidents')
@Controller('api/v1/incidents')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  /** Newest first; filter by status and by when they opened. */
  @RequirePermission('incidents:read')
  @Get()
  @ApiOkResponse({ type: IncidentPage })
  async list(@Query() query: ListIncidentsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<IncidentPage> {
    const { limit, cursor, ...filters } = query;
    const page = await this.incidents.list(organization.id, filters, { limit, cursor });
    return { items: await this.views(organization.id, page.items), next: page.next };
  }

  @RequirePermission('incidents:read')
  @Get(':incident')
  @ApiOkResponse({ type: IncidentView })
  async get(@UuidParam('incident') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<IncidentView> {
    const [view] = await this.views(organization.id, [await this.incidents.get(organization.id, id)]);
    return view;
  }

  /** The incident's alert events (each lifecycle phase of each alert), in the order they arrived. */
  @RequirePermission('incidents:read')
  @Get(':incident/alert-events')
  @ApiOkResponse({ type: AlertEventPage })
  async alertEvents(
    @UuidParam('incident') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<AlertEventPage> {
    const page = await this.incidents.alertEvents(organization.id, id, query);
    return { items: page.items.map(alertEventView), next: page.next };
  }

  /** Moves the alerts of the named incidents into this one and marks them merged into it. */
  @RequirePermission('incidents:merge')
  @Post(':incident/merge')
  @HttpCode(200)
  @ApiOkResponse({ type: IncidentView })
  @ApiErrors(
    { status: 404, description: 'The incident, or one of incidentIds, is unknown' },
    { status: 409, description: 'An incident is already merged, or reopening conflicts with another open incident' },
  )
  async merge(
    @UuidParam('incident') id: string,
    @Body() body: MergeIncidentsDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<IncidentView> {
    const [view] = await this.views(organization.id, [await this.incidents.merge(organization.id, id, body.incidentIds, audit)]);
    return view;
  }

  private async views(organizationId: string, incidents: Incident[]): Promise<IncidentView[]> {
    const triage = await this.incidents.triage(organizationId, incidents);
    return incidents.map((i) => incidentView(i, triage.get(i.id)!));
  }
}
