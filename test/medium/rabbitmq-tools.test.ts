import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataSourceConnection, ToolCatalog, ToolContext, ToolResult } from '@svc/investigations/tools';
import { Timestamp } from '@svc/platform';
import { RABBITMQ_MANAGEMENT, RabbitmqVhost } from '../support/rabbitmq-vhost';
import { until } from '../support/until';

type Output = Record<string, any>;
const out = (result: ToolResult) => result.output as Output;

/**
 * The RabbitMQ tools against the machine's RabbitMQ through its management API, in a virtual
 * host of this test's own, each diagnosis from a real condition: a queue whose consumer went
 * away while publishers kept publishing, connections held by named applications, a memory alarm.
 */
describe('RabbitMQ tools against a real broker', () => {
  const vhost = new RabbitmqVhost('svc-tools');
  const catalog = new ToolCatalog();

  const context = (): ToolContext => {
    const connection: DataSourceConnection = {
      integrationId: '0190a0b0-0000-7000-8000-0000000000f1',
      type: 'rabbitmq',
      baseUrl: RABBITMQ_MANAGEMENT,
      headers: { authorization: vhost.monitorAuthorization },
    };
    return { connection, window: { from: Timestamp.now().plusSeconds(-600), until: Timestamp.now() }, signal: new AbortController().signal };
  };
  const run = (tool: string, args: Record<string, unknown> = {}) => catalog.run(tool, args, context());
  const connect = (name: string) => vhost.connect(name);

  beforeAll(() => vhost.create());
  afterEach(() => vhost.closeConnections());
  afterAll(() => vhost.drop());

  it('names the queue whose consumer went away while messages kept arriving, with its depth and oldest message', async () => {
    const worker = await connect('order-worker');
    const consuming = await worker.createChannel();
    await consuming.assertQueue('orders');
    await consuming.consume('orders', (message) => message && consuming.ack(message));
    const publisher = await connect('checkout');
    const publishing = await publisher.createConfirmChannel();
    await until(async () => out(await run('rabbitmq.queues', { vhost: vhost.name })).queues?.[0]?.consumers === 1, 20_000, 'the consumer to show');

    await worker.close(); // the consumer goes away; checkout keeps publishing
    for (let i = 0; i < 25; i++) publishing.sendToQueue('orders', Buffer.from(`order ${i}`), { timestamp: Math.floor(Date.now() / 1000) - 120 });
    await publishing.waitForConfirms();
    const result = await until(
      async () => {
        const r = await run('rabbitmq.queues', { vhost: vhost.name });
        return out(r).queues[0]?.messages === 25 && out(r).queues[0]?.consumers === 0 ? r : false;
      },
      20_000,
      'the queue to show 25 messages and no consumer',
    );
    expect(result.outcome).toBe('succeeded');
    expect(out(result).queues[0]).toMatchObject({ name: 'orders', vhost: vhost.name, ready: 25, unacknowledged: 0, consumers: 0 });
    expect(out(result).queues[0].oldestMessageSeconds).toBeGreaterThanOrEqual(120);
    expect(out(result).withoutConsumers).toEqual(['orders']);
    expect(result.summary).toContain(`1 queue in ${vhost.name}; the deepest: ${vhost.name} orders with 25 messages, 0 consumers.`);
    expect(result.summary).toContain('Messages but no consumer: orders (25).');
    expect(result.sources[0]).toMatch(/^\/api\/queues\?sort=messages&sort_reverse=true&columns=/);
  });

  it('counts connections and channels by the name the application gives them', async () => {
    for (const name of ['order-worker', 'order-worker', 'order-worker', 'billing']) {
      const connection = await connect(name);
      await connection.createChannel();
      if (name === 'billing') await connection.createChannel();
    }
    const result = await until(
      async () => {
        const r = await run('rabbitmq.connections', { vhost: vhost.name });
        return out(r).total === 4 && out(r).connections.every((c: Output) => c.channels > 0) ? r : false;
      },
      20_000,
      'the four connections with their channels',
    );
    expect(out(result).byConnectionName).toEqual([
      { connectionName: 'order-worker', connections: 3, channels: 3 },
      { connectionName: 'billing', connections: 1, channels: 2 },
    ]);
    expect(out(result).byUser).toEqual([{ user: vhost.app.username, connections: 4, channels: 5 }]);
    expect(result.summary).toBe('4 connections; by connection name: order-worker 3, billing 1.');
  });

  it('reads the memory alarm that blocks publishers, and its end', async () => {
    const before = await run('rabbitmq.overview');
    expect(before.outcome).toBe('succeeded');
    expect(out(before).nodes[0].memoryLimitBytes).toBeGreaterThan(0);
    expect(out(before).alarms).toEqual([]);
    expect(before.summary).toMatch(
      /^RabbitMQ \d+\.\d+\.\d+, 1 node: \d+ messages queued \(\d+ unacknowledged\), \d+ consumers?, \d+ connections?\. No alarm\./,
    );
    try {
      execFileSync('rabbitmqctl', ['set_vm_memory_high_watermark', 'absolute', '1MB'], { stdio: 'ignore' });
      const alarmed = await until(
        async () => {
          const r = await run('rabbitmq.overview');
          return out(r).alarms.length ? r : false;
        },
        20_000,
        'the memory alarm',
      );
      expect(out(alarmed).nodes[0].memoryAlarm).toBe(true);
      expect(alarmed.summary).toMatch(/Alarms: rabbit@\S+: memory alarm \(\S+ \S+ of \S+ \S+\): publishers are blocked\./);
    } finally {
      execFileSync('rabbitmqctl', ['set_vm_memory_high_watermark', '0.4'], { stdio: 'ignore' });
    }
    await until(async () => out(await run('rabbitmq.overview')).alarms.length === 0, 20_000, 'the alarm to clear');
  });

  it('fails a read with credentials the broker refuses, naming the status only', async () => {
    const wrong = context();
    wrong.connection.headers = { authorization: `Basic ${Buffer.from(`${vhost.monitor.username}:not-it`).toString('base64')}` };
    const result = await catalog.run('rabbitmq.queues', {}, wrong);
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatch(/^RabbitMQ answered HTTP 401 at \/api\/queues/);
    expect(result.error).not.toContain('not-it');
  });
});
