import { getQueueToken } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { OUTBOX_CHANNEL, OutboxRepository, PendingOutboxMessage } from './outbox.repository';
import { OrganizationJobData } from './organization-job';

const BATCH = 100;
const POLL_MS = 1000;
const ADD_TIMEOUT_MS = 2000;
const MAX_BACKOFF_MS = 10_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not accept the job within ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * Moves committed outbox rows to their Bull queues. Rows are claimed with SKIP LOCKED, so any
 * number of relays can run; the row id is the jobId, so a row added twice (a relay that died
 * between add and mark) is one job. While Redis is down the rows wait and the relay backs off.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private listener?: Client;
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = false;
  private failures = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
    private readonly config: AppConfig,
    private readonly outbox: OutboxRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.listener?.end().catch(() => undefined);
  }

  /** Drains now (and again after a running drain ends). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private async listen(): Promise<void> {
    try {
      const client = new Client({ connectionString: this.config.DATABASE_URL, application_name: 'svc-outbox-listener' });
      client.on('error', () => {
        this.listener = undefined;
        if (!this.stopped) setTimeout(() => void this.listen(), POLL_MS);
      });
      client.on('notification', () => this.kick());
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (error) {
      // Polling still delivers; listening is only the fast path.
      this.logger.warn({ err: error }, 'Outbox LISTEN unavailable; polling only');
      if (!this.stopped) setTimeout(() => void this.listen(), POLL_MS * 5);
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
  }

  private async run(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    let delay = POLL_MS;
    try {
      let moved: number;
      do {
        this.again = false;
        moved = await this.drainBatch();
      } while ((moved === BATCH || this.again) && !this.stopped);
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(this.failures, 6));
      this.logger.warn({ err: error, retryInMs: delay }, 'Outbox relay could not deliver; will retry');
    } finally {
      this.running = false;
      this.schedule(this.again ? 0 : delay);
    }
  }

  /** One transaction: claim up to BATCH rows, add them to Bull, mark the ones that went. */
  private async drainBatch(): Promise<number> {
    // The failure is thrown after the commit, so the rows that did reach Bull stay marked.
    const { count, failure } = await this.dataSource.transaction(async (manager) => {
      const rows: PendingOutboxMessage[] = await this.outbox.claimPendingAcrossOrganizations(BATCH, manager);
      const sent: string[] = [];
      let failure: Error | undefined;
      for (const row of rows) {
        try {
          const queue = this.moduleRef.get<Queue>(getQueueToken(row.queue), { strict: false });
          const data: OrganizationJobData = { organizationId: row.organization_id, payload: row.payload };
          await withTimeout(queue.add(row.job_name, data, { jobId: row.id }), ADD_TIMEOUT_MS);
          sent.push(row.id);
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          break;
        }
      }
      if (sent.length > 0) await this.outbox.markDispatchedAcrossOrganizations(sent, manager);
      if (failure) {
        await this.outbox.recordFailureAcrossOrganizations(rows[sent.length].id, failure.message.slice(0, 1000), manager);
      }
      return { count: rows.length, failure };
    });
    if (failure) throw failure;
    return count;
  }
}
