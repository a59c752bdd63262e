import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { InjectScopedRepository, newId, Outbox, ScopedRepository, Timestamp } from '@svc/platform';
import { ActivityType, InvestigationActivity } from './investigation-activity.entity';
import { InvestigationsRepository } from './investigations.repository';

export { ACTIVITY_CHANNEL } from './investigations.repository';

/** The envelope of decisions §7, as streamed and as listed. */
export interface ActivityEnvelope {
  sequence: number;
  type: ActivityType;
  investigationId: string;
  at: string;
  data: Record<string, unknown>;
}

export function envelopeOf(row: InvestigationActivity): ActivityEnvelope {
  return { sequence: row.sequence, type: row.type, investigationId: row.investigationId, at: row.at.toISOString(), data: row.data };
}

/**
 * Appends and reads an investigation's durable activity. Appends run inside the caller's
 * transaction, take the next sequence from the investigation row (which they lock), and notify
 * listeners at commit.
 */
@Injectable()
export class ActivityService {
  constructor(
    @InjectScopedRepository(InvestigationActivity) private readonly activity: ScopedRepository<InvestigationActivity>,
    private readonly investigations: InvestigationsRepository,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Appends an event. A terminal one (`concluded`, `failed`, `cancelled`) also writes the
   * investigation's end job, if its opener asked for one, in the same transaction as the end.
   */
  async append(manager: EntityManager, organizationId: string, investigationId: string, type: ActivityType, data: Record<string, unknown>): Promise<number> {
    const sequence = await this.investigations.nextActivitySequence(organizationId, investigationId, manager);
    await this.activity.withManager(manager).insert(organizationId, { id: newId(), investigationId, sequence, type, at: Timestamp.now(), data });
    // Streams do not carry hypothesis updates: nothing to wake them for.
    if (type !== 'hypothesis.updated') await this.investigations.notifyActivity(organizationId, investigationId, sequence, manager);
    if (type === 'concluded' || type === 'failed' || type === 'cancelled') {
      const job = await this.investigations.endJobOf(organizationId, investigationId, manager);
      if (job) await this.outbox.add(manager, { organizationId, queue: job.queue, name: job.name, payload: job.payload });
    }
    return sequence;
  }

  /** Activity after a sequence, oldest first; `streamOnly` leaves out what the stream does not carry. */
  async after(
    organizationId: string,
    investigationId: string,
    afterSequence: number,
    limit: number,
    options: { streamOnly?: boolean } = {},
  ): Promise<InvestigationActivity[]> {
    const query = this.activity
      .query(organizationId, 'a')
      .andWhere('a.investigation_id = :investigationId AND a.sequence > :afterSequence', { investigationId, afterSequence })
      .orderBy('a.sequence', 'ASC')
      .limit(limit);
    if (options.streamOnly) query.andWhere("a.type <> 'hypothesis.updated'");
    return query.getMany();
  }
}
