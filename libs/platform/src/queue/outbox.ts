import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../ids';
import { OutboxRepository } from './outbox.repository';

export { OUTBOX_CHANNEL } from './outbox.repository';

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
  constructor(private readonly repository: OutboxRepository) {}

  async add(manager: EntityManager, job: OutboxJob): Promise<string> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error('Outbox.add must run inside the transaction of the state change');
    if (!job.organizationId) throw new Error('Every job carries its Organization');
    const id = newId();
    await this.repository.insert(job.organizationId, { id, queue: job.queue, jobName: job.name, payload: job.payload }, manager);
    await this.repository.notifyRelays(job.queue, manager);
    return id;
  }

  /** Several jobs in one statement (and one wake-up per queue), for a transaction that schedules many. */
  async addAll(manager: EntityManager, jobs: OutboxJob[]): Promise<string[]> {
    if (!manager.queryRunner?.isTransactionActive) throw new Error('Outbox.addAll must run inside the transaction of the state change');
    if (jobs.some((job) => !job.organizationId)) throw new Error('Every job carries its Organization');
    if (jobs.length === 0) return [];
    const messages = jobs.map((job) => ({ organizationId: job.organizationId, id: newId(), queue: job.queue, jobName: job.name, payload: job.payload }));
    await this.repository.insertMany(messages, manager);
    for (const queue of new Set(jobs.map((job) => job.queue))) await this.repository.notifyRelays(queue, manager);
    return messages.map((m) => m.id);
  }
}
