import { randomBytes } from 'node:crypto';
import amqp, { ChannelModel } from 'amqplib';

/** The machine's RabbitMQ management API (its plugin enabled by .ci/run). */
export const RABBITMQ_MANAGEMENT = 'http://127.0.0.1:15672';
const ADMIN = `Basic ${Buffer.from('guest:guest').toString('base64')}`;

/** The management API as the broker's administrator (guest on loopback), for setting up what a test needs. */
export async function manageRabbitmq(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${RABBITMQ_MANAGEMENT}/api/${path}`, {
    method,
    headers: { authorization: ADMIN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300 && !(method === 'DELETE' && res.status === 404)) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
}

const basic = (user: { username: string; password: string }): string => `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;

/**
 * A virtual host of a test's own on the machine's RabbitMQ, with an application user (all
 * permissions there) and a monitoring user (the `monitoring` tag, access without any permission:
 * what an integration signs in with). Connections it opens are closed by `closeConnections`.
 */
export class RabbitmqVhost {
  readonly name: string;
  readonly monitor: { username: string; password: string };
  readonly app: { username: string; password: string };
  private readonly open: ChannelModel[] = [];

  constructor(prefix: string) {
    const suffix = randomBytes(4).toString('hex');
    this.name = `${prefix}-${suffix}`;
    this.monitor = { username: `investigator-${suffix}`, password: 'monitor-secret' };
    this.app = { username: `app-${suffix}`, password: 'app-secret' };
  }

  /** The monitoring user's Authorization header. */
  get monitorAuthorization(): string {
    return basic(this.monitor);
  }

  async create(): Promise<void> {
    await manageRabbitmq('PUT', `vhosts/${this.name}`);
    await manageRabbitmq('PUT', `users/${this.monitor.username}`, { password: this.monitor.password, tags: 'monitoring' });
    await manageRabbitmq('PUT', `users/${this.app.username}`, { password: this.app.password, tags: '' });
    await manageRabbitmq('PUT', `permissions/${this.name}/${this.app.username}`, { configure: '.*', write: '.*', read: '.*' });
    // Access to the virtual host without any configure, write or read permission: a monitoring user sees its queues then.
    await manageRabbitmq('PUT', `permissions/${this.name}/${this.monitor.username}`, { configure: '^$', write: '^$', read: '^$' });
  }

  /** An AMQP connection as the application user, named `name` (the connection_name client property). */
  async connect(name: string): Promise<ChannelModel> {
    const connection = await amqp.connect(
      { hostname: '127.0.0.1', port: 5672, username: this.app.username, password: this.app.password, vhost: this.name },
      { clientProperties: { connection_name: name } },
    );
    connection.on('error', () => undefined);
    this.open.push(connection);
    return connection;
  }

  async closeConnections(): Promise<void> {
    await Promise.all(this.open.splice(0).map((c) => c.close().catch(() => undefined)));
  }

  /** Deletes every queue of the virtual host (what one test left is not another's). */
  async deleteQueues(): Promise<void> {
    const res = await fetch(`${RABBITMQ_MANAGEMENT}/api/queues/${encodeURIComponent(this.name)}?columns=name`, { headers: { authorization: ADMIN } });
    if (!res.ok) throw new Error(`listing the queues of ${this.name}: ${res.status} ${await res.text()}`);
    for (const { name } of (await res.json()) as Array<{ name: string }>)
      await manageRabbitmq('DELETE', `queues/${encodeURIComponent(this.name)}/${encodeURIComponent(name)}`);
  }

  async drop(): Promise<void> {
    await this.closeConnections();
    await manageRabbitmq('DELETE', `vhosts/${this.name}`);
    await manageRabbitmq('DELETE', `users/${this.monitor.username}`);
    await manageRabbitmq('DELETE', `users/${this.app.username}`);
  }
}
