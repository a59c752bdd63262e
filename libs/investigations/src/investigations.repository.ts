import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Conclusion, StoppedBy } from './conclusion.types';
import type { HypothesisItem } from './conclusion.types';
import type { InvestigationStatus } from './investigation.entity';
import type { ConversationContext, EndJob } from './turn.types';

/** Postgres channel that wakes event streams; the payload is `<organizationId>/<investigationId>/<sequence>`. */
export const ACTIVITY_CHANNEL = 'svc_investigation_activity';

export interface ClaimState {
  status: string;
  claim: string | null;
}

/** Tokens a reasoner used in one language model call. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * The statements on investigations (and their sources) beyond what the scoped repository does:
 * locking, claiming, ending, the activity sequence and its notification.
 */
@Injectable()
export class InvestigationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The investigation's status and the claim of the attempt working it; with `lock`, the row is
   * locked for the rest of the caller's transaction, so a write that follows is still that attempt's.
   */
  async claimState(
    organizationId: string,
    investigationId: string,
    options: { lock: boolean },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ClaimState | undefined> {
    const [row] = (await manager.query(`SELECT status, claim FROM investigations WHERE organization_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`, [
      organizationId,
      investigationId,
    ])) as ClaimState[];
    return row;
  }

  /** The status, with the row locked for the rest of the caller's transaction. */
  async lockStatus(
    organizationId: string,
    investigationId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<InvestigationStatus | undefined> {
    const [locked] = (await manager.query('SELECT status FROM investigations WHERE organization_id = $1 AND id = $2 FOR UPDATE', [
      organizationId,
      investigationId,
    ])) as { status: InvestigationStatus }[];
    return locked?.status;
  }

  /** Marks the investigation as worked by this attempt (its claim) and counts the attempt. */
  async markClaimed(
    organizationId: string,
    investigationId: string,
    claim: string,
    reasoner: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `UPDATE investigations SET status = 'investigating', claim = $3, attempts = attempts + 1, reasoner = $4,
              started_at = COALESCE(started_at, clock_timestamp()), updated_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, investigationId, claim, reasoner],
    );
  }

  async markCancelled(organizationId: string, investigationId: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE investigations SET status = 'cancelled', concluded_at = clock_timestamp(), updated_at = clock_timestamp() WHERE organization_id = $1 AND id = $2`,
      [organizationId, investigationId],
    );
  }

  async storeHypotheses(
    organizationId: string,
    investigationId: string,
    hypotheses: HypothesisItem[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query('UPDATE investigations SET hypotheses = $3::jsonb WHERE organization_id = $1 AND id = $2', [
      organizationId,
      investigationId,
      JSON.stringify(hypotheses),
    ]);
  }

  /** Ends the investigation with its checked conclusion (`partial` when a budget stopped it, `needs_input` when it asks a person). */
  async storeConclusion(
    organizationId: string,
    investigationId: string,
    end: { status: 'partial' | 'concluded' | 'needs_input'; conclusion: Conclusion; stoppedBy: StoppedBy | null },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const c = end.conclusion;
    await manager.query(
      `UPDATE investigations SET status = $3, conclusion_status = $4, summary = $5, impact = $6::jsonb, findings = $7::jsonb, hypotheses = $8::jsonb,
              actions = $9::jsonb, limitations = $10::jsonb, stopped_by = $11, plot = $12::jsonb, concluded_at = clock_timestamp(), updated_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2`,
      [
        organizationId,
        investigationId,
        end.status,
        c.conclusionStatus,
        c.summary,
        JSON.stringify(c.impact),
        JSON.stringify(c.findings),
        JSON.stringify(c.hypotheses),
        JSON.stringify(c.actions),
        JSON.stringify(c.limitations),
        end.stoppedBy,
        c.plot ? JSON.stringify(c.plot) : null,
      ],
    );
  }

  async storeFailure(organizationId: string, investigationId: string, error: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE investigations SET status = 'failed', error = $3, concluded_at = clock_timestamp(), updated_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, investigationId, error],
    );
  }

  /**
   * Adds the tokens of one language model call to the investigation's usage, as soon as they are
   * spent: whatever ends the run (a conclusion, a failure, a cancel, a worker that dies and is
   * taken over), the usage counts every call made. Not tied to the attempt's claim or the
   * status: the tokens were spent on this investigation whoever holds it now.
   */
  async addUsage(organizationId: string, investigationId: string, usage: TokenUsage, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      'UPDATE investigations SET input_tokens = input_tokens + $3, output_tokens = output_tokens + $4 WHERE organization_id = $1 AND id = $2',
      [organizationId, investigationId, usage.inputTokens, usage.outputTokens],
    );
  }

  /**
   * Gives a queued conversation turn its context, as it starts; false when the investigation is
   * no longer queued (it was cancelled while it waited) or already has one.
   */
  async startTurn(
    organizationId: string,
    investigationId: string,
    conversation: ConversationContext,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [, affected] = (await manager.query(
      `UPDATE investigations SET conversation = $3::jsonb, updated_at = clock_timestamp()
        WHERE organization_id = $1 AND id = $2 AND status = 'queued' AND conversation IS NULL`,
      [organizationId, investigationId, JSON.stringify(conversation)],
    )) as [unknown, number];
    return affected === 1;
  }

  /** The job its opener asked to be written when the investigation ends, if any. */
  async endJobOf(organizationId: string, investigationId: string, manager: EntityManager = this.dataSource.manager): Promise<EndJob | null> {
    const [row] = (await manager.query('SELECT end_job FROM investigations WHERE organization_id = $1 AND id = $2', [organizationId, investigationId])) as {
      end_job: EndJob | null;
    }[];
    return row?.end_job ?? null;
  }

  /** Takes the next activity sequence of the investigation (locking its row until the caller commits). */
  async nextActivitySequence(organizationId: string, investigationId: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    // An UPDATE … RETURNING comes back from TypeORM as [rows, affected count].
    const [rows] = (await manager.query(
      'UPDATE investigations SET last_sequence = last_sequence + 1, updated_at = clock_timestamp() WHERE organization_id = $1 AND id = $2 RETURNING last_sequence',
      [organizationId, investigationId],
    )) as [{ last_sequence: number }[], number];
    return rows[0].last_sequence;
  }

  /** Wakes the event streams of the investigation when the caller's transaction commits. */
  async notifyActivity(organizationId: string, investigationId: string, sequence: number, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_notify($1, $2)', [ACTIVITY_CHANNEL, `${organizationId}/${investigationId}/${sequence}`]);
  }

  /** Records a selected source; a source already selected (by an earlier attempt) keeps its first rank and reason. */
  async addSource(
    organizationId: string,
    source: { id: string; investigationId: string; integrationId: string; rank: number; reason: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO investigation_sources (organization_id, id, investigation_id, integration_id, rank, reason) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, investigation_id, integration_id) DO NOTHING`,
      [organizationId, source.id, source.investigationId, source.integrationId, source.rank, source.reason],
    );
  }
}
