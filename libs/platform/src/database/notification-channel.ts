import { Logger } from '@nestjs/common';
import { Client } from 'pg';

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
/** A connection that looks open can be dead (half-open TCP): it is checked this often… */
const PING_EVERY_MS = 30_000;
/** …and replaced when the check does not answer within this. */
const PING_TIMEOUT_MS = 10_000;

export interface NotificationHandlers {
  /** A notification on the channel (its payload). */
  notified(payload: string): void;
  /**
   * The LISTEN connection came up (true) or was lost (false). Notifications sent while it was down
   * are gone: a cache fed by the channel must forget everything on either change.
   */
  listeningChanged(listening: boolean): void;
}

/**
 * One dedicated PostgreSQL connection that LISTENs on one channel, reconnecting with backoff and
 * replacing a connection that stops answering. Started by the first `start()`, ended by `stop()`.
 */
export class NotificationChannel {
  private readonly logger: Logger;
  private client?: Client;
  private started = false;
  private stopped = false;
  private connecting = false;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly channel: string,
    private readonly handlers: NotificationHandlers,
    /** How the connection shows in pg_stat_activity. */
    private readonly applicationName = `svc-listen-${channel}`,
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
    this.logger = new Logger(`NotificationChannel(${channel})`);
  }

  /** Whether LISTEN is in place right now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.pingTimer = setInterval(() => void this.ping(), PING_EVERY_MS);
    this.pingTimer.unref();
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.connecting || this.client) return;
    this.connecting = true;
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.applicationName, keepAlive: true });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', (message) => {
      if (message.channel === this.channel && this.client === client) this.handlers.notified(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      if (this.failures > 0) this.logger.log({ afterFailures: this.failures }, 'LISTEN connection restored');
      this.failures = 0;
      this.handlers.listeningChanged(true);
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error);
    } finally {
      this.connecting = false;
    }
  }

  private lost(client: Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.handlers.listeningChanged(false);
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.scheduleReconnect(error ?? new Error('connection ended'));
  }

  private scheduleReconnect(error: unknown): void {
    if (this.stopped || this.retryTimer) return;
    this.failures += 1;
    const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** Math.min(this.failures - 1, 6));
    this.logger.warn({ err: error, retryInMs: delay }, 'LISTEN connection unavailable; retrying');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  private async ping(): Promise<void> {
    const client = this.client;
    if (!client || this.stopped) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
        }),
      ]);
    } catch (error) {
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
}
