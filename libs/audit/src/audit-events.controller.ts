import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiAliasOkResponse, CurrentOrganization, listingBody, OrganizationContext, RequirePermission } from '@svc/platform';
import { auditEventView, AuditEventItemsPage, AuditEventPage, CSV_COLUMNS, csvLine } from './dto/audit-event.view';
import { AuditService } from './audit.service';
import { AuditExportQueryDto, AuditListQueryDto } from './dto/audit-query.dto';

@ApiTags('audit')
@Controller('api/v1/audit-events')
export class AuditEventsController {
  constructor(private readonly audit: AuditService) {}

  /** Newest first; filter by time range, actor, action, target and outcome. */
  @RequirePermission('audit-events:read')
  @Get()
  @ApiOkResponse({ type: AuditEventPage })
  @ApiAliasOkResponse(AuditEventItemsPage)
  async list(
    @Query() query: AuditListQueryDto,
    @CurrentOrganization() organization: OrganizationContext,
    @Req() req: Request,
  ): Promise<AuditEventPage | AuditEventItemsPage> {
    const { limit, cursor, ...filters } = query;
    const page = await this.audit.list(organization.id, filters, { limit, cursor });
    return listingBody(req, 'events', page.items.map(auditEventView), page.next);
  }

  /**
   * Every matching event, oldest first, streamed as NDJSON (one event per line) or CSV, in
   * constant memory: batches are read only as fast as the client takes them.
   */
  @RequirePermission('audit-events:read')
  @Get('export')
  @ApiOkResponse({
    description: 'An attachment: one JSON audit event per line, or CSV with a header row',
    content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
  })
  async export(@Query() query: AuditExportQueryDto, @CurrentOrganization() organization: OrganizationContext, @Res() res: Response): Promise<void> {
    const { format = 'ndjson', ...filters } = query;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    res.status(200);
    res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="audit-events-${organization.id}-${stamp}.${format}"`);
    if (format === 'csv') res.write(`${CSV_COLUMNS.join(',')}\r\n`);
    let aborted = false;
    res.on('close', () => {
      aborted = !res.writableFinished;
    });
    try {
      await this.audit.forEachBatch(organization.id, filters, async (batch) => {
        if (aborted) throw new ExportAborted();
        const chunk = batch.map((e) => (format === 'csv' ? csvLine(auditEventView(e)) : `${JSON.stringify(auditEventView(e))}\n`)).join('');
        if (!res.write(chunk)) await drainedOrClosed(res);
      });
      res.end();
    } catch (error) {
      // Headers are gone: the only honest signal left is a truncated, aborted response.
      if (!(error instanceof ExportAborted)) res.destroy(error instanceof Error ? error : undefined);
    }
  }
}

class ExportAborted extends Error {}

/** Resolves when the client has taken the buffered data or gone away; leaves no listener behind. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
