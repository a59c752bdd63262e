import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Timestamp } from '@svc/platform';

/** A tool call as it starts: the run exists (running, or failed at once when refused) before it is worked. */
export interface StartedToolRun {
  id: string;
  investigationId: string;
  ordinal: number;
  tool: string;
  integrationId: string | null;
  purpose: string;
  hypothesisId: string | null;
  arguments: unknown;
}

/** How a run ended. */
export interface FinishedToolRun {
  outcome: string;
  summary: string;
  sources: string[];
  truncated: boolean;
  error: string | null;
  output: unknown;
  window: { from: Timestamp; until: Timestamp } | null;
}

/** The statements on an investigation's numbered tool runs. */
@Injectable()
export class ToolRunsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Ends the investigation's runs still marked running as failed with `error` (cancelled, interrupted, stopped). */
  async failRunning(organizationId: string, investigationId: string, error: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE tool_runs SET outcome = 'failed', error = $3, finished_at = clock_timestamp()
        WHERE organization_id = $1 AND investigation_id = $2 AND outcome = 'running'`,
      [organizationId, investigationId, error],
    );
  }

  async nextOrdinal(organizationId: string, investigationId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const [{ next }] = (await manager.query(
      'SELECT COALESCE(max(ordinal), 0) + 1 AS next FROM tool_runs WHERE organization_id = $1 AND investigation_id = $2',
      [organizationId, investigationId],
    )) as { next: number }[];
    return next;
  }

  async insertRunning(organizationId: string, run: StartedToolRun, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `INSERT INTO tool_runs (organization_id, id, investigation_id, ordinal, tool, integration_id, purpose, hypothesis_id, arguments, outcome, started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, 'running', clock_timestamp())`,
      [organizationId, run.id, run.investigationId, run.ordinal, run.tool, run.integrationId, run.purpose, run.hypothesisId, JSON.stringify(run.arguments)],
    );
  }

  /** A refused call: recorded as failed at once, against no integration. */
  async insertRefused(
    organizationId: string,
    run: Omit<StartedToolRun, 'integrationId'> & { summary: string; error: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO tool_runs (organization_id, id, investigation_id, ordinal, tool, integration_id, purpose, hypothesis_id, arguments, outcome, started_at, finished_at, summary, error)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8::jsonb, 'failed', clock_timestamp(), clock_timestamp(), $9, $10)`,
      [
        organizationId,
        run.id,
        run.investigationId,
        run.ordinal,
        run.tool,
        run.purpose,
        run.hypothesisId,
        JSON.stringify(run.arguments),
        run.summary,
        run.error,
      ],
    );
  }

  async finish(
    organizationId: string,
    investigationId: string,
    ordinal: number,
    run: FinishedToolRun,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE tool_runs SET outcome = $4, finished_at = clock_timestamp(), summary = $5, sources = $6::jsonb, truncated = $7, error = $8, output = $9::jsonb,
              window_from = $10, window_until = $11
        WHERE organization_id = $1 AND investigation_id = $2 AND ordinal = $3`,
      [
        organizationId,
        investigationId,
        ordinal,
        run.outcome,
        run.summary,
        JSON.stringify(run.sources),
        run.truncated,
        run.error,
        JSON.stringify(run.output ?? null),
        run.window?.from ?? null,
        run.window?.until ?? null,
      ],
    );
  }
}
