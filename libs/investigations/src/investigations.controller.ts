import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiHeader, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  AuditContext, CurrentAuditContext, CurrentOrganization, ListQueryDto, OrganizationContext, RequirePermission, uuidParam,
} from '@svc/platform';
import { envelopeOf } from './activity.service';
import { ActivityPage, InvestigationView, investigationView, ListInvestigationsQueryDto, OpenInvestigationDto, sourcesView } from './dto/investigation.dto';
import { investigationReport } from './investigation-report';
import { InvestigationsService } from './investigations.service';
import { InvestigationEventStream } from './stream';

@ApiTags('investigations')
@ApiCookieAuth('session')
@Controller('api/v1/investigations')
export class InvestigationsController {
  constructor(private readonly investigations: InvestigationsService, private readonly stream: InvestigationEventStream) {}

  /** Queues an investigation of the incident; the worker takes it from there. */
  @RequirePermission('investigations:open')
  @Post()
  async open(@Body() body: OpenInvestigationDto, @CurrentOrganization() organization: OrganizationContext, @CurrentAuditContext() audit: AuditContext): Promise<InvestigationView> {
    return investigationView(await this.investigations.open(organization.id, body.incidentId, audit));
  }

  /** Newest first; filter by status and incident. */
  @RequirePermission('investigations:read')
  @Get()
  async list(@Query() query: ListInvestigationsQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<{ next: string | null; total: number; items: InvestigationView[] }> {
    const { limit, cursor, ...filters } = query;
    const page = await this.investigations.list(organization.id, filters, { limit, cursor });
    return { next: page.next, total: page.total, items: page.items.map((i) => investigationView(i)) };
  }

  @RequirePermission('investigations:read')
  @Get(':investigation')
  async get(@Param('investigation', uuidParam('investigation')) id: string, @CurrentOrganization() organization: OrganizationContext): Promise<InvestigationView> {
    const investigation = await this.investigations.get(organization.id, id);
    return investigationView(investigation, await this.investigations.runsOf(organization.id, id));
  }

  /** The integrations selected for it, ranked, with the runs made against them. */
  @RequirePermission('investigations:read', { organizationHeader: 'required' })
  @Get(':investigation/sources')
  @ApiHeader({ name: 'X-Svc-Organization', required: true })
  async sources(@Param('investigation', uuidParam('investigation')) id: string, @CurrentOrganization() organization: OrganizationContext): Promise<ReturnType<typeof sourcesView>> {
    const sources = await this.investigations.sourcesOf(organization.id, id);
    return sourcesView(id, sources, await this.investigations.runsOf(organization.id, id));
  }

  /** The stream's envelopes plus `hypothesis.updated` entries, in sequence order. */
  @RequirePermission('investigations:read')
  @Get(':investigation/activity')
  async activity(@Param('investigation', uuidParam('investigation')) id: string, @Query() query: ListQueryDto, @CurrentOrganization() organization: OrganizationContext): Promise<ActivityPage> {
    const page = await this.investigations.activityOf(organization.id, id, query);
    return { items: page.items.map(envelopeOf), next: page.next };
  }

  /** The latest running snapshot while investigating, the final hypotheses once it ended. */
  @RequirePermission('investigations:read')
  @Get(':investigation/hypotheses')
  async hypotheses(@Param('investigation', uuidParam('investigation')) id: string, @CurrentOrganization() organization: OrganizationContext): Promise<{ investigationId: string; status: string; final: boolean; items: unknown[] }> {
    const i = await this.investigations.get(organization.id, id);
    return { investigationId: id, status: i.status, final: !['queued', 'investigating'].includes(i.status), items: i.hypotheses };
  }

  @RequirePermission('investigations:cancel')
  @Post(':investigation/cancel')
  @HttpCode(200)
  async cancel(@Param('investigation', uuidParam('investigation')) id: string, @CurrentOrganization() organization: OrganizationContext, @CurrentAuditContext() audit: AuditContext): Promise<InvestigationView> {
    return investigationView(await this.investigations.cancel(organization.id, id, audit));
  }

  /** The conclusion as Markdown, with the runs it cites. */
  @RequirePermission('investigations:read')
  @Get(':investigation/report')
  @ApiProduces('text/markdown')
  async report(@Param('investigation', uuidParam('investigation')) id: string, @CurrentOrganization() organization: OrganizationContext, @Res() res: Response): Promise<void> {
    const investigation = await this.investigations.get(organization.id, id);
    const markdown = investigationReport(investigation, await this.investigations.runsOf(organization.id, id));
    res.status(200).type('text/markdown; charset=utf-8').send(markdown);
  }

  /** Server-sent events (decisions §7): checked before the stream opens, so an unknown id is a plain 404. */
  @RequirePermission('investigations:read')
  @Get(':investigation/events')
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false })
  async events(
    @Param('investigation', uuidParam('investigation')) id: string, @Headers('last-event-id') lastEventId: string | undefined,
    @CurrentOrganization() organization: OrganizationContext, @Req() req: Request, @Res() res: Response,
  ): Promise<void> {
    await this.investigations.get(organization.id, id);
    await this.stream.serve({ organizationId: organization.id, investigationId: id, lastEventId, req, res });
  }
}
