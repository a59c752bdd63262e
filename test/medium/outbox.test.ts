import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { INestApplicationContext, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Job, Queue } from 'bull';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigModule, DatabaseModule, loadConfig, LoggingModule, Outbox, OrganizationJobData, QueueModule, unwrapOrganizationJob } from '@svc/platform';
import { MIGRATIONS } from '../../migrations';
import { createTestDatabase } from '../support/databases';
import { RedisServer } from '../support/redis-server';
import { until } from '../support/until';

const received: { jobId: string; organizationId: string; payload: unknown }[] = [];
const refused: string[] = [];

@Processor('probe')
class ProbeProcessor {
  constructor(@InjectQueue('probe') readonly queue: Queue) {}

  @Process('probe.ping')
  handle(job: Job<OrganizationJobData>) {
    try {
      const { organizationId, payload } = unwrapOrganizationJob(job);
      received.push({ jobId: String(job.id), organizationId, payload });
    } catch (error) {
      refused.push(String(job.id));
      throw error;
    }
  }
}

@Module({ imports: [QueueModule.forFeature('probe', ['probe.ping'])], providers: [ProbeProcessor] })
class ProbeModule {}

describe('transactional outbox and relay (worker side)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let redis: RedisServer;
  let app: INestApplicationContext;
  let dataSource: DataSource;
  let outbox: Outbox;

  /** A state change and its job in one transaction, as a domain service would write them. */
  async function changeWithJob(key: string, fail = false): Promise<string> {
    return dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO platform_settings (key, value) VALUES ($1, $2)', [key, 'changed']);
      const id = await outbox.add(manager, { organizationId: 'acme', queue: 'probe', name: 'probe.ping', payload: { key } });
      if (fail) throw new Error('the state change fails after the job was written');
      return id;
    });
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = await RedisServer.start();
    Object.assign(process.env, {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      SVC_SECRET_KEY: randomBytes(32).toString('hex'),
      SVC_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}`,
    });
    const config = loadConfig();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot('worker-test', config),
        DatabaseModule.forRoot({ migrations: MIGRATIONS, applicationName: 'svc-test' }),
        QueueModule.forRoot(),
        QueueModule.forWorker(),
        ProbeModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await (app as unknown as { init(): Promise<void> }).init();
    dataSource = app.get(DataSource);
    outbox = app.get(Outbox);
  });
  afterAll(async () => {
    await app?.close();
    await redis?.kill();
    await db?.drop();
  });

  it('delivers a committed job to its processor with the Organization, using the outbox row id as jobId', async () => {
    const id = await changeWithJob('first');
    const job = await until(() => received.find((r) => r.jobId === id));
    expect(job).toEqual({ jobId: id, organizationId: 'acme', payload: { key: 'first' } });
    const [row] = await dataSource.query('SELECT dispatched_at FROM outbox_messages WHERE id = $1', [id]);
    expect(row.dispatched_at).not.toBeNull();
  });

  it('a rolled-back state change leaves no job behind', async () => {
    await expect(changeWithJob('rolled-back', true)).rejects.toThrow(/fails after/);
    expect(await dataSource.query(`SELECT 1 FROM outbox_messages WHERE payload->>'key' = 'rolled-back'`)).toEqual([]);
    // A job committed after it has been relayed and processed: the relay has had its pass.
    const later = await changeWithJob('after-rollback');
    await until(() => received.find((r) => r.jobId === later), 20_000, 'the later job');
    expect(received.some((r) => (r.payload as { key: string }).key === 'rolled-back')).toBe(false);
  });

  it('writes several jobs of several Organizations in one statement, each delivered with its own Organization and payload', async () => {
    const ids = await dataSource.transaction(async (manager) =>
      outbox.addAll(manager, [
        { organizationId: 'acme', queue: 'probe', name: 'probe.ping', payload: { key: 'many-1' } },
        { organizationId: 'globex', queue: 'probe', name: 'probe.ping', payload: { key: 'many-2', nested: { n: 2 } } },
        { organizationId: 'acme', queue: 'probe', name: 'probe.ping', payload: { key: 'many-3' } },
      ]),
    );
    expect(new Set(ids).size).toBe(3);
    const jobs = await until(() => {
      const found = ids.map((id) => received.find((r) => r.jobId === id));
      return found.every(Boolean) ? found : undefined;
    });
    expect(jobs).toEqual([
      { jobId: ids[0], organizationId: 'acme', payload: { key: 'many-1' } },
      { jobId: ids[1], organizationId: 'globex', payload: { key: 'many-2', nested: { n: 2 } } },
      { jobId: ids[2], organizationId: 'acme', payload: { key: 'many-3' } },
    ]);
    expect(await dataSource.transaction((manager) => outbox.addAll(manager, []))).toEqual([]);
    await expect(outbox.addAll(dataSource.manager, [{ organizationId: 'acme', queue: 'probe', name: 'probe.ping', payload: {} }])).rejects.toThrow(
      /inside the transaction/,
    );
  });

  it('refuses to write a job outside a transaction', async () => {
    await expect(outbox.add(dataSource.manager, { organizationId: 'acme', queue: 'probe', name: 'probe.ping', payload: {} })).rejects.toThrow(
      /inside the transaction/,
    );
  });

  it('loses no committed job while Redis is down: the outbox delivers it once Redis returns', async () => {
    await redis.kill();
    const id = await changeWithJob('while-redis-down');
    // The relay keeps trying and recording the failure; the job waits in PostgreSQL.
    const [pending] = await until(async () => {
      const rows = await dataSource.query('SELECT dispatched_at, attempts, last_error FROM outbox_messages WHERE id = $1', [id]);
      return rows[0]?.attempts >= 1 ? rows : undefined;
    });
    expect(pending.dispatched_at).toBeNull();
    expect(pending.last_error).toBeTruthy();
    expect(received.some((r) => r.jobId === id)).toBe(false);

    await redis.startProcess();
    const job = await until(() => received.find((r) => r.jobId === id), 30_000);
    expect(job.organizationId).toBe('acme');
    // The relay marks the row on its next pass (a replayed add is the same job: same jobId).
    await until(async () => (await dataSource.query('SELECT 1 FROM outbox_messages WHERE id = $1 AND dispatched_at IS NOT NULL', [id]))[0], 30_000);
    // A job committed after that one has been processed too: a second delivery of the first would have come by now.
    const later = await changeWithJob('after-redis-returned');
    await until(() => received.find((r) => r.jobId === later), 30_000, 'the later job');
    expect(received.filter((r) => r.jobId === id)).toHaveLength(1);
  }, 60_000);

  it('a job that carries no Organization is refused and not retried', async () => {
    const queue = app.get(ProbeProcessor).queue;
    const job = await queue.add('probe.ping', { payload: { key: 'no-org' } }, { jobId: 'no-organization', attempts: 3 });
    await until(() => refused.includes(String(job.id)));
    const failed = await until(async () => ((await queue.getJob('no-organization'))?.failedReason ? await queue.getJob('no-organization') : undefined));
    expect(failed!.failedReason).toMatch(/carries no Organization/);
    expect(await failed!.getState()).toBe('failed');
    expect(failed!.attemptsMade).toBe(1);
  });
});
