import { Body, Controller, Get, Headers, HttpCode, Param, ParseIntPipe, Patch, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  AuditContext,
  CurrentAuditContext,
  CurrentOrganization,
  InvalidInputError,
  OrganizationContext,
  RequirePermission,
  UuidParam,
  ApiErrors,
} from '@svc/platform';
import { CorrectPostmortemDto, CreatePostmortemDto } from './dto/postmortem.dto';
import { PostmortemRevisionView, postmortemRevisionView, PostmortemView, postmortemView } from './dto/postmortem.view';
import type { Postmortem } from './postmortem.entity';
import { PostmortemCorrection, PostmortemsService } from './postmortems.service';

const IF_MATCH = { name: 'If-Match', required: false, description: 'The revision the change is based on, as its entity tag ("3"); 412 when stale' };

/** The postmortem of an incident (decisions §10). Every answer carries the revision as its ETag. */
@ApiTags('postmortems')
@Controller('api/v1/incidents/:incident/postmortem')
export class PostmortemsController {
  constructor(private readonly postmortems: PostmortemsService) {}

  private send(res: Response, postmortem: Postmortem): PostmortemView {
    res.setHeader('ETag', `"${postmortem.revision}"`);
    return postmortemView(postmortem);
  }

  @RequirePermission('postmortems:read')
  @Get()
  @ApiOkResponse({ type: PostmortemView })
  async get(
    @UuidParam('incident') incidentId: string,
    @CurrentOrganization() organization: OrganizationContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PostmortemView> {
    return this.send(res, await this.postmortems.get(organization.id, incidentId));
  }

  /** The first draft, from the recorded facts and the notes given; the incident must be resolved. */
  @RequirePermission('postmortems:write')
  @Post()
  @ApiCreatedResponse({ type: PostmortemView })
  @ApiErrors({ status: 409, description: 'The incident is not resolved, was merged, or already has a postmortem' })
  async create(
    @UuidParam('incident') incidentId: string,
    @Body() body: CreatePostmortemDto,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PostmortemView> {
    return this.send(res, await this.postmortems.create(organization.id, incidentId, { ...body }, audit));
  }

  /** A new draft from the facts as they are now; fields a person set are kept. */
  @RequirePermission('postmortems:write')
  @Post('regenerate')
  @HttpCode(200)
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: PostmortemView })
  @ApiErrors(
    { status: 409, description: 'The postmortem is reviewed, or the incident is no longer resolved' },
    { status: 412, description: 'If-Match names another revision' },
  )
  async regenerate(
    @UuidParam('incident') incidentId: string,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PostmortemView> {
    return this.send(res, await this.postmortems.regenerate(organization.id, incidentId, ifMatch, audit));
  }

  /** A person's corrections of any of the text and list fields; a reviewed postmortem returns to draft. */
  @RequirePermission('postmortems:write')
  @Patch()
  @ApiHeader(IF_MATCH)
  @ApiOkResponse({ type: PostmortemView })
  @ApiErrors({ status: 412, description: 'If-Match names another revision' })
  async correct(
    @UuidParam('incident') incidentId: string,
    @Body() body: CorrectPostmortemDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PostmortemView> {
    return this.send(res, await this.postmortems.correct(organization.id, incidentId, { ...body } as PostmortemCorrection, ifMatch, audit));
  }

  /** Marks the draft reviewed by the signed-in person (a review names a person, so API tokens cannot). */
  @RequirePermission('postmortems:write', { tokens: false })
  @Post('review')
  @HttpCode(200)
  @ApiOkResponse({ type: PostmortemView })
  @ApiErrors({ status: 409, description: 'The postmortem is already reviewed' })
  async review(
    @UuidParam('incident') incidentId: string,
    @CurrentOrganization() organization: OrganizationContext,
    @CurrentAuditContext() audit: AuditContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PostmortemView> {
    return this.send(res, await this.postmortems.review(organization.id, incidentId, audit));
  }

  /** A kept revision of the document, as it was (every revision is kept). */
  @RequirePermission('postmortems:read')
  @Get('revisions/:revision')
  @ApiOkResponse({ type: PostmortemRevisionView })
  @ApiErrors({ status: 404, description: 'No postmortem, or no such revision' })
  async revision(
    @UuidParam('incident') incidentId: string,
    @Param('revision', new ParseIntPipe({ exceptionFactory: () => new InvalidInputError('Invalid input: revision must be an integer') })) revision: number,
    @CurrentOrganization() organization: OrganizationContext,
  ): Promise<PostmortemRevisionView> {
    return postmortemRevisionView(incidentId, await this.postmortems.revision(organization.id, incidentId, revision));
  }

  /** The current postmortem as Markdown. */
  @RequirePermission('postmortems:read')
  @Get('report')
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'The current postmortem as Markdown', content: { 'text/markdown': { schema: { type: 'string' } } } })
  async report(@UuidParam('incident') incidentId: string, @CurrentOrganization() organization: OrganizationContext, @Res() res: Response): Promise<void> {
    const markdown = await this.postmortems.report(organization.id, incidentId);
    res.status(200).type('text/markdown; charset=utf-8').send(markdown);
  }
}
