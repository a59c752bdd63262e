import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../ids';

export const OUTBOX_CHANNEL = 'svc_outbox';

export interface OutboxJob {
  organizationId: string;
  queue: string;
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Schedules a job as part of a transaction: the job exists exactly when the transaction commits.
 * The NOTIFY is delivered at commit too, and wakes the relay at once.
 */
@Injectable()
export class Outbox {
  async add(manager: EntityManager, job: OutboxJob): Promise<string> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error('Outbox.add must run inside the transaction of the state change');
    if (!job.organizationId) throw new Error('Every job carries its Organization');
    const id = newId();
    await manager.query(
      'INSERT INTO outbox_messages (id, organization_id, queue, job_name, payload) VALUES ($1, $2, $3, $4, $5::jsonb)',
      [id, job.organizationId, job.queue, job.name, JSON.stringify(job.payload)],
    );
    await manager.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, job.queue]);
    return id;
  }
}
