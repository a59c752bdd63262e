import type { Connection } from 'mysql2/promise';
import type { Client } from 'pg';
import { MariadbServer } from '../test/support/mariadb-server';
import { PostgresServer } from '../test/support/postgres-server';
import { RABBITMQ_MANAGEMENT, RabbitmqVhost } from '../test/support/rabbitmq-vhost';
import { until } from '../test/support/until';
import type { Rule, Scenario } from './scenarios';
import { shop } from './shop';

/**
 * A condition made on a real datastore server for a scenario whose cause only the datastore
 * shows: the server started for it, the condition held (a transaction keeping a row lock,
 * connections taken), and the integration that reads it. Held until released: a datastore is read
 * as it is now, so the condition lasts while the investigation runs.
 */
export interface HeldCondition {
  /** When the condition began in the datastore (Unix seconds, the server's clock). */
  at: number;
  /** The integration reading the datastore, as POST /api/v1/integrations takes it. */
  integration: { type: string; name: string; config: Record<string, unknown>; credentials: Record<string, unknown> };
  release(): Promise<void>;
}

/** How a datastore scenario makes its condition, and how long its page takes to fire after it. */
export interface DatastoreCondition {
  hold(): Promise<HeldCondition>;
  /**
   * Seconds from the condition to the end of the data that the page needs to have fired: the
   * data is staged once this much real time has passed since the condition began.
   */
  leadSeconds: number;
}

/** The metrics' onset follows the datastore's condition by this much (sessions pile up behind a lock, requests slow). */
const ONSET_AFTER_CONDITION = 15;

/** The data's onset for a condition that began at `conditionAt`, or, staged without one, `leadSeconds` before the end. */
const onsetOf = (end: number, condition: DatastoreCondition, conditionAt?: number): number =>
  (conditionAt ?? end - condition.leadSeconds) + ONSET_AFTER_CONDITION;

/** A p99 latency rule over short windows: it fires within about two minutes of the onset. */
const fastLatencyRule = (alert: string, job: string, threshold: number): Rule => ({
  alert,
  expr: `histogram_quantile(0.99, sum by (namespace, job, le) (rate(http_request_duration_seconds_bucket{job="${job}"}[1m]))) > ${threshold}`,
  forSeconds: 60,
  labels: { severity: 'critical' },
  annotations: { summary: `${job} answers slowly`, description: `The 99th percentile latency of ${job} is {{ $value }}s.` },
});

/** An error-ratio rule over short windows. */
const fastErrorRule = (alert: string, job: string, threshold = 0.05): Rule => ({
  alert,
  expr: `sum by (namespace, job) (rate(http_requests_total{job="${job}", code=~"5.."}[1m])) / sum by (namespace, job) (rate(http_requests_total{job="${job}"}[1m])) > ${threshold}`,
  forSeconds: 60,
  labels: { severity: 'critical' },
  annotations: { summary: `${job} is failing requests`, description: `{{ $value | humanizePercentage }} of ${job}'s requests fail.` },
});

const seconds = (iso: string): number => Date.parse(iso) / 1000;

/** Closes what a condition opened, then stops its server. */
async function closing(server: { stop(): Promise<void> }, sessions: Array<{ end(): Promise<unknown> }>): Promise<void> {
  await Promise.all(sessions.map((s) => s.end().catch(() => undefined)));
  await server.stop();
}

const postgresIntegration = (server: PostgresServer, services: string[]): HeldCondition['integration'] => ({
  type: 'postgresql',
  name: 'ordersdb',
  config: { host: '127.0.0.1', port: server.port, database: 'shop', tls: 'disable', services },
  credentials: { username: 'investigator', password: 'monitor-secret' },
});

/** Waits until `count` sessions of the server wait for a lock, asking every `intervalMs`. */
async function waitingSessions(count: () => Promise<number>, expected: number, intervalMs = 50): Promise<void> {
  await until(async () => (await count()) >= expected, 15_000, `${expected} sessions to wait for the lock`, intervalMs);
}

/**
 * A condition held on a private PostgreSQL (`settings` for its server) with the datastore tests'
 * shop (PostgresServer.createShop: the `shop` role and database with an orders table, and the
 * `investigator` account the integration signs in with): `make` opens the sessions it needs
 * through `connect` (as the shop role, each named by its application) and answers when the
 * condition began, as PostgreSQL wrote it.
 */
async function onShopDatabase(
  settings: Record<string, string | number>,
  make: (connect: (application: string) => Promise<Client>) => Promise<string>,
): Promise<HeldCondition> {
  const server = await PostgresServer.start(settings);
  const sessions: Client[] = [];
  const connect = async (application: string): Promise<Client> => {
    const client = server.client({ user: 'shop', password: 'shop-secret', database: 'shop', application });
    await client.connect();
    sessions.push(client);
    return client;
  };
  try {
    await server.createShop();
    const began = await make(connect);
    return { at: seconds(began), integration: postgresIntegration(server, ['orders']), release: () => closing(server, sessions) };
  } catch (error) {
    await closing(server, sessions);
    throw error;
  }
}

/** An instant as PostgreSQL writes it, in UTC and ISO 8601. */
const utc = (expression: string): string => `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A stock reindex leaves a transaction open holding an order row that orders' sessions update: they wait, orders answers slowly. */
const stockReindexLock: DatastoreCondition = {
  leadSeconds: 4 * 60,
  hold: () =>
    onShopDatabase({}, async (connect) => {
      const reindex = await connect('stock-reindex');
      await reindex.query('BEGIN');
      const [{ began }] = (await reindex.query(`SELECT ${utc('transaction_timestamp()')} AS began`)).rows;
      await reindex.query(`UPDATE orders SET status = status WHERE id = 1`);
      for (let i = 0; i < 3; i++) (await connect('orders')).query(`UPDATE orders SET status = 'paid' WHERE id = 1`).catch(() => undefined);
      const admin = await connect('eval-admin');
      await waitingSessions(async () => (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n, 3);
      return began;
    }),
};

/** A reports export opens connections until one is left, which the monitoring account takes: orders fails the requests that need a new one. */
const exportTakesConnections: DatastoreCondition = {
  leadSeconds: 4 * 60,
  // Ten slots for ordinary users: 12, less the 2 kept for superusers.
  hold: () =>
    onShopDatabase({ max_connections: 12, superuser_reserved_connections: 2 }, async (connect) => {
      // One slot stays free: the integration signs in with it (PostgreSQL 15 reserves slots for superusers only).
      const orders = await connect('orders');
      for (let i = 0; i < 8; i++) await connect('reports-export');
      const { rows } = await orders.query(`SELECT ${utc('max(backend_start)')} AS last FROM pg_stat_activity WHERE backend_type = 'client backend'`);
      return rows[0].last;
    }),
};

/** A ledger backfill on a private MariaDB keeps a transaction open on a balance row that payments' sessions update. */
const ledgerBackfillLock: DatastoreCondition = {
  leadSeconds: 4 * 60,
  async hold() {
    const server = await MariadbServer.start({ 'innodb-lock-wait-timeout': 3600 });
    const sessions: Connection[] = [];
    try {
      await server.admin(`
        CREATE DATABASE payments;
        CREATE TABLE payments.balances (account VARCHAR(32) PRIMARY KEY, amount BIGINT) ENGINE=InnoDB;
        INSERT INTO payments.balances VALUES ('merchant-7', 1000);
        CREATE USER 'investigator'@'%' IDENTIFIED BY 'monitor-secret';
        GRANT PROCESS, SLAVE MONITOR ON *.* TO 'investigator'@'%';
        CREATE USER 'payments'@'%' IDENTIFIED BY 'payments-secret';
        GRANT SELECT, UPDATE ON payments.* TO 'payments'@'%';
        CREATE USER 'ledger_backfill'@'%' IDENTIFIED BY 'backfill-secret';
        GRANT SELECT, UPDATE ON payments.* TO 'ledger_backfill'@'%';
      `);
      const connect = async (user: string, password: string): Promise<Connection> => {
        const connection = await server.connect({ user, password, database: 'payments' });
        sessions.push(connection);
        return connection;
      };
      const backfill = await connect('ledger_backfill', 'backfill-secret');
      await backfill.query('START TRANSACTION');
      await backfill.query(`UPDATE balances SET amount = amount WHERE account = 'merchant-7'`);
      const root = await server.connect();
      sessions.push(root);
      await root.query(`SET time_zone = '+00:00'`);
      const [[{ began }]] = (await root.query(
        `SELECT DATE_FORMAT(trx_started, '%Y-%m-%dT%H:%i:%sZ') AS began FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = ?`,
        [backfill.threadId],
      )) as unknown as [[{ began: string }]];
      for (let i = 0; i < 3; i++)
        (await connect('payments', 'payments-secret')).query(`UPDATE balances SET amount = amount + 1 WHERE account = 'merchant-7'`).catch(() => undefined);
      await waitingSessions(
        async () => {
          const [rows] = (await root.query(`SELECT count(DISTINCT requesting_trx_id) AS n FROM information_schema.innodb_lock_waits`)) as unknown as [
            [{ n: number }],
          ];
          return Number(rows[0].n);
          // InnoDB refreshes its lock views only when they have not been read for 100 ms.
        },
        3,
        250,
      );
      return {
        at: seconds(began),
        integration: {
          type: 'mysql',
          name: 'payments-mariadb',
          config: { host: '127.0.0.1', port: server.port, tls: 'disable', services: ['payments'] },
          credentials: { username: 'investigator', password: 'monitor-secret' },
        },
        release: () => closing(server, sessions),
      };
    } catch (error) {
      await closing(server, sessions);
      throw error;
    }
  },
};

/**
 * Checkout publishes orders to a queue that orders-worker consumes and waits for their
 * confirmation; the worker's connection closes, and the orders wait in the queue while checkout
 * keeps publishing (a message a second, stamped with its publish time): on the machine's
 * RabbitMQ, in a virtual host of the scenario's own.
 */
const confirmationsUnconsumed: DatastoreCondition = {
  leadSeconds: 4 * 60,
  async hold() {
    const vhost = new RabbitmqVhost('svc-eval');
    await vhost.create();
    let publishing: ReturnType<typeof setInterval> | undefined;
    const release = async (): Promise<void> => {
      clearInterval(publishing);
      await vhost.drop();
    };
    try {
      const queue = 'checkout.orders';
      const worker = await vhost.connect('orders-worker');
      const consuming = await worker.createChannel();
      await consuming.assertQueue(queue);
      await consuming.consume(queue, (message) => message && consuming.ack(message));
      const publisher = await (await vhost.connect('checkout')).createChannel();
      const publish = () => publisher.sendToQueue(queue, Buffer.from('order'), { timestamp: Math.floor(Date.now() / 1000) });
      // Consumed while the worker is there; then it goes, and every order from then on waits.
      for (let i = 0; i < 5; i++) publish();
      await worker.close();
      const at = Math.floor(Date.now() / 1000);
      publish();
      publishing = setInterval(publish, 1000);
      return {
        at,
        integration: {
          type: 'rabbitmq',
          name: 'orders-broker',
          config: { baseUrl: RABBITMQ_MANAGEMENT, services: ['checkout'] },
          credentials: { username: vhost.monitor.username, password: vhost.monitor.password },
        },
        release,
      };
    } catch (error) {
      await release();
      throw error;
    }
  },
};

/**
 * Incidents whose cause only a datastore shows: the metrics have the symptom (an alerting
 * service's latency or errors) and nothing of the cause, which is a condition made on a real
 * PostgreSQL, MariaDB or RabbitMQ server while the investigation runs. The data's onset follows the
 * condition's real start (`build(end, conditionAt)`).
 */
export const DATASTORE_SCENARIOS: Scenario[] = [
  {
    name: 'orders-stock-row-locked-by-reindex',
    family: 'database-locks',
    story:
      "A stock reindex job leaves a transaction open holding an order row in ordersdb; orders' updates of that row wait behind it, and orders' p99 latency goes from 60 ms to seconds. Metrics show only the latency.",
    redHerrings: [],
    seed: 131,
    datastore: stockReindexLock,
    build(end, conditionAt) {
      const at = onsetOf(end, stockReindexLock, conditionAt);
      const c = shop(end, this.seed, { workloads: ['frontend', 'orders', 'orders-worker', 'recommendations'] });
      c.workload('orders').effects = { latency: (t, _pod, route) => (t >= at && route === '/api/orders' ? 45 : 1) };
      return c;
    },
    rule: fastLatencyRule('OrdersLatencyHigh', 'orders', 1),
    truth: { values: [['stock-reindex']], series: /postgresql\.locks/ },
  },
  {
    name: 'orders-connections-taken-by-export',
    family: 'database-saturation',
    story:
      "A reports export opens eight of ordersdb's ten connections; orders' pool cannot grow past the one it holds and fails the requests that need a new connection. No database exporter runs: metrics show only the errors.",
    redHerrings: [],
    seed: 132,
    datastore: exportTakesConnections,
    build(end, conditionAt) {
      const at = onsetOf(end, exportTakesConnections, conditionAt);
      const c = shop(end, this.seed, { workloads: ['frontend', 'orders', 'orders-worker', 'recommendations'] });
      c.workload('orders').effects = { errors: (t, _pod, route) => (t >= at && route === '/api/orders' ? { '500': 0.3 } : undefined) };
      return c;
    },
    rule: fastErrorRule('OrdersHighErrorRate', 'orders'),
    truth: { values: [['reports-export'], ['connection']], series: /postgresql\.connections/ },
  },
  {
    name: 'payments-balance-locked-by-backfill',
    family: 'database-locks',
    story:
      "A ledger backfill keeps a MariaDB transaction open on a merchant's balance row; payments' updates wait behind it and its p99 latency reaches seconds. Metrics show only the latency.",
    redHerrings: [],
    seed: 133,
    datastore: ledgerBackfillLock,
    build(end, conditionAt) {
      const at = onsetOf(end, ledgerBackfillLock, conditionAt);
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'payments', 'inventory'] });
      c.workload('payments').effects = { latency: (t) => (t >= at ? 30 : 1) };
      return c;
    },
    rule: fastLatencyRule('PaymentsLatencyHigh', 'payments', 1),
    truth: { values: [['ledger_backfill']], series: /mysql\.lock_waits/ },
  },
  {
    name: 'checkout-orders-queue-without-consumers',
    family: 'scaled-to-zero',
    story:
      "orders-worker's connection to RabbitMQ closes; the orders checkout publishes wait in checkout.orders with no consumer, and checkout's requests, which wait for the confirmation, time out. No RabbitMQ exporter runs: metrics show only checkout's errors.",
    redHerrings: [],
    seed: 134,
    datastore: confirmationsUnconsumed,
    build(end, conditionAt) {
      const at = onsetOf(end, confirmationsUnconsumed, conditionAt);
      const c = shop(end, this.seed, { workloads: ['frontend', 'checkout', 'payments', 'inventory', 'orders-worker'] });
      c.workload('checkout').effects = { errors: (t, _pod, route) => (t >= at && route === '/api/checkout' ? { '504': 0.4 } : undefined) };
      return c;
    },
    rule: fastErrorRule('CheckoutHighErrorRate', 'checkout'),
    truth: { values: [['checkout.orders'], ['consumer']], series: /rabbitmq\.queues/ },
  },
];
