import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiHeader, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ApiErrors,
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  InvalidInputError,
  ListQueryDto,
  OrganizationContext,
  RequirePermission,
  UuidParam,
} from '@svc/platform';
import { ListInvestigationsQueryDto, OpenInvestigationDto } from './dto/investigation.dto';
import {
  ActivityPage,
  HypothesesView,
  InvestigationPage,
  InvestigationSourcesView,
  InvestigationView,
  investigationView,
  RunSeriesView,
  RunTemplatesView,
} from './dto/investigation.view';
import { InvestigationsService } from './investigations.service';
import { InvestigationEventStream } from './stream';

/** The largest run number a path may name (PostgreSQL's integer). */
const MAX_ORDINAL = 2_147_483_647;

@ApiTags('investigations')
@Controller('api/v1/investigations')
export class InvestigationsController {
  constructor(
    private readonly investigations: InvestigationsService,
    private readonly stream: InvestigationEventStream,
  ) {}

  /** Queues an investigation of the incident; the worker takes it from there. */
  @RequirePermission('investigations:open')
  @Post()
  @ApiCreatedResponse({ type: InvestigationView })
  @ApiErrors({ status: 404, description: 'Unknown incident, or another Organization’s' })
  async open(
    @Body() body: OpenInvestigationDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<InvestigationView> {
    return investigationView(await this.investigations.open(organization.id, body.incidentId, audit));
  }

  /** Newest first; filter by status and incident. */
  @RequirePermission('investigations:read')
  @Get()
  @ApiOkResponse({ type: InvestigationPage })
  list(@Query() query: ListInvestigationsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<InvestigationPage> {
    const { limit, cursor, ...filters } = query;
    return this.investigations.page(organization.id, filters, { limit, cursor });
  }

  @RequirePermission('investigations:read')
  @Get(':investigation')
  @ApiOkResponse({ type: InvestigationView })
  get(@UuidParam('investigation') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<InvestigationView> {
    return this.investigations.detail(organization.id, id);
  }

  /** The integrations selected for it, ranked, with the runs made against them. */
  @RequirePermission('investigations:read', { organizationHeader: 'required' })
  @Get(':investigation/sources')
  @ApiOkResponse({ type: InvestigationSourcesView })
  sources(@UuidParam('investigation') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<InvestigationSourcesView> {
    return this.investigations.sourcesWithRuns(organization.id, id);
  }

  /** The stream's envelopes plus `hypothesis.updated` entries, in sequence order. */
  @RequirePermission('investigations:read')
  @Get(':investigation/activity')
  @ApiOkResponse({ type: ActivityPage })
  activity(
    @UuidParam('investigation') id: string,
    @Query() query: ListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<ActivityPage> {
    return this.investigations.activityPage(organization.id, id, query);
  }

  /** The latest running snapshot while investigating, the final hypotheses once it ended. */
  @RequirePermission('investigations:read')
  @Get(':investigation/hypotheses')
  @ApiOkResponse({ type: HypothesesView })
  hypotheses(@UuidParam('investigation') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<HypothesesView> {
    return this.investigations.hypotheses(organization.id, id);
  }

  @RequirePermission('investigations:cancel')
  @Post(':investigation/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: InvestigationView })
  @ApiErrors({ status: 409, description: 'The investigation already ended' })
  async cancel(
    @UuidParam('investigation') id: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
  ): Promise<InvestigationView> {
    return investigationView(await this.investigations.cancel(organization.id, id, audit));
  }

  /** The series a run read (a Prometheus range query's), as columns for plotting. */
  @RequirePermission('investigations:read')
  @Get(':investigation/runs/:ordinal/series')
  @ApiParam({ name: 'ordinal', description: 'The number of the run within the investigation', schema: { type: 'integer', minimum: 1, maximum: MAX_ORDINAL } })
  @ApiOkResponse({ type: RunSeriesView })
  @ApiErrors({ status: 404, description: 'Unknown investigation or run, or another Organization’s' })
  runSeries(
    @UuidParam('investigation') id: string,
    @Param('ordinal') ordinal: string,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<RunSeriesView> {
    return this.investigations.runSeries(organization.id, id, ordinalOf(ordinal));
  }

  /** The log templates a run mined (a loki.log_patterns run's), as a table with counts before and after the onset. */
  @RequirePermission('investigations:read')
  @Get(':investigation/runs/:ordinal/templates')
  @ApiParam({ name: 'ordinal', description: 'The number of the run within the investigation', schema: { type: 'integer', minimum: 1, maximum: MAX_ORDINAL } })
  @ApiOkResponse({ type: RunTemplatesView })
  @ApiErrors({ status: 404, description: 'Unknown investigation or run, or another Organization’s' })
  runTemplates(
    @UuidParam('investigation') id: string,
    @Param('ordinal') ordinal: string,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<RunTemplatesView> {
    return this.investigations.runTemplates(organization.id, id, ordinalOf(ordinal));
  }

  /** The conclusion as Markdown, with the runs it cites. */
  @RequirePermission('investigations:read')
  @Get(':investigation/report')
  @ApiOkResponse({ description: 'The report', content: { 'text/markdown': { schema: { type: 'string' } } } })
  async report(@UuidParam('investigation') id: string, @CurrentOrganization() organization: OrganizationContext, @Res() res: Response): Promise<void> {
    const markdown = await this.investigations.report(organization.id, id);
    res.status(200).type('text/markdown; charset=utf-8').send(markdown);
  }

  /** Server-sent events (decisions §7): checked before the stream opens, so an unknown id is a plain 404. */
  @RequirePermission('investigations:read')
  @Get(':investigation/events')
  @ApiOkResponse({ description: 'Server-sent events (decisions §7)', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiNoContentResponse({ description: 'Last-Event-ID is at or past the terminal event: nothing more will come' })
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  async events(
    @UuidParam('investigation') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentOrganization() organization: OrganizationContext,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.investigations.get(organization.id, id);
    await this.stream.serve({ organizationId: organization.id, investigationId: id, lastEventId, req, res });
  }
}

/** A run's number from the path: an integer from 1 to MAX_ORDINAL, else a 400. */
function ordinalOf(ordinal: string): number {
  if (!/^[1-9]\d{0,9}$/.test(ordinal) || Number(ordinal) > MAX_ORDINAL)
    throw new InvalidInputError(`Invalid input: ordinal must be an integer from 1 to ${MAX_ORDINAL}`);
  return Number(ordinal);
}
