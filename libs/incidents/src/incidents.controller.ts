import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { ApiCookieAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  AuditContext, CurrentAuditContext, CurrentOrganization, ListQueryDto, OrganizationContext, RequirePermission, uuidParam,
} from '@svc/platform';
import { AlertEventView, alertEventView, IncidentView, incidentView, ListIncidentsQueryDto } from './dto/incident.dto';
import { IncidentsService } from './incidents.service';

export class MergeIncidentsDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 100 })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(100) @IsUUID('all', { each: true })
  incidentIds!: string[];
}

@ApiTags('incidents')
@ApiCookieAuth('session')
@Controller('api/v1/incidents')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  /** Newest first; filter by status and by when they opened. */
  @RequirePermission('incidents:read')
  @Get()
  async list(@Query() query: ListIncidentsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<{ items: IncidentView[]; next: string | null }> {
    const { limit, cursor, ...filters } = query;
    const page = await this.incidents.list(organization.id, filters, { limit, cursor });
    return { items: page.items.map(incidentView), next: page.next };
  }

  @RequirePermission('incidents:read')
  @Get(':incident')
  @ApiOkResponse({ type: IncidentView })
  async get(@Param('incident', uuidParam('incident')) id: string, @CurrentOrganization() organization: OrganizationContext): Promise<IncidentView> {
    return incidentView(await this.incidents.get(organization.id, id));
  }

  /** The incident's alert events (each lifecycle phase of each alert), in the order they arrived. */
  @RequirePermission('incidents:read')
  @Get(':incident/alert-events')
  async alertEvents(
    @Param('incident', uuidParam('incident')) id: string, @Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext,
  ): Promise<{ items: AlertEventView[]; next: string | null }> {
    const page = await this.incidents.alertEvents(organization.id, id, query);
    return { items: page.items.map(alertEventView), next: page.next };
  }

  /** Moves the alerts of the named incidents into this one and marks them merged into it. */
  @RequirePermission('incidents:merge')
  @Post(':incident/merge')
  @HttpCode(200)
  @ApiOkResponse({ type: IncidentView })
  async merge(
    @Param('incident', uuidParam('incident')) id: string, @Body() body: MergeIncidentsDto,
    @CurrentOrganization() organization: OrganizationContext, @CurrentAuditContext() audit: AuditContext,
  ): Promise<IncidentView> {
    return incidentView(await this.incidents.merge(organization.id, id, body.incidentIds, audit));
  }
}
