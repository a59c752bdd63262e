import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '@svc/platform';
import { ACTIVITY_CHANNEL } from '../activity.service';

/** Wakes a subscriber: something may have been appended (or a notification may have been missed). */
export type ActivityListener = () => void;

const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
/** A connection that looks open can be dead (half-open TCP): it is checked this often… */
const PING_EVERY_MS = 30_000;
/** …and replaced when the check does not answer within this. */
const PING_TIMEOUT_MS = 10_000;

/**
 * One dedicated PostgreSQL connection per process that LISTENs on the activity channel and wakes
 * the event streams of the investigation a notification names. Notifications only wake: a stream
 * re-reads the durable activity rows after its last sequence, so a missed notification loses
 * nothing as long as the stream is woken again later. That is what happens on every (re)connect:
 * the notifications sent while the connection was down are gone, so every subscriber is woken
 * and re-reads. The connection starts with the first subscription and closes at shutdown.
 */
@Injectable()
export class ActivityNotifier implements OnApplicationShutdown {
  private readonly logger = new Logger(ActivityNotifier.name);
  /** `<organizationId>/<investigationId>` → the listeners of that investigation's streams. */
  private readonly subscribers = new Map<string, Set<ActivityListener>>();
  private client?: Client;
  private started = false;
  private stopped = false;
  private connecting = false;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private readyWaiters: ((ready: boolean) => void)[] = [];

  constructor(private readonly config: AppConfig) {}

  /** Calls `listener` whenever activity of the investigation may have been appended; returns the unsubscribe. */
  subscribe(organizationId: string, investigationId: string, listener: ActivityListener): () => void {
    const key = `${organizationId}/${investigationId}`;
    let set = this.subscribers.get(key);
    if (!set) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    set.add(listener);
    this.start();
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      const current = this.subscribers.get(key);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.subscribers.delete(key);
    };
  }

  /** Whether the LISTEN connection is up right now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** How many streams are subscribed (all investigations). */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  /** Starts listening (if not yet) and resolves once LISTEN is in place, or after `timeoutMs`. */
  async ready(timeoutMs = 10_000): Promise<boolean> {
    this.start();
    if (this.client) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== done);
        resolve(false);
      }, timeoutMs);
      const done = (ready: boolean) => {
        clearTimeout(timer);
        resolve(ready);
      };
      this.readyWaiters.push(done);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const client = this.client;
    this.client = undefined;
    this.subscribers.clear();
    for (const waiter of this.readyWaiters.splice(0)) waiter(false);
    await client?.end().catch(() => undefined);
  }

  private start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.pingTimer = setInterval(() => void this.ping(), PING_EVERY_MS);
    this.pingTimer.unref();
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.connecting || this.client) return;
    this.connecting = true;
    const client = new Client({ connectionString: this.config.DATABASE_URL, application_name: 'svc-activity-listener', keepAlive: true });
    // An error or end before the connection was adopted is handled by the catch below.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    client.on('notification', (message) => {
      if (message.channel === ACTIVITY_CHANNEL && message.payload) this.dispatch(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ACTIVITY_CHANNEL}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      if (this.failures > 0) this.logger.log({ afterFailures: this.failures }, 'Activity LISTEN connection restored');
      this.failures = 0;
      for (const waiter of this.readyWaiters.splice(0)) waiter(true);
      // Whatever was notified before this LISTEN took effect was not seen here: every stream re-reads.
      this.wakeAll();
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error);
    } finally {
      this.connecting = false;
    }
  }

  /** The adopted connection failed or closed: drop it and reconnect with backoff. */
  private lost(client: Client, error: Error | undefined): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.scheduleReconnect(error ?? new Error('connection ended'));
  }

  private scheduleReconnect(error: unknown): void {
    if (this.stopped || this.retryTimer) return;
    this.failures += 1;
    const delay = Math.min(MAX_BACKOFF_MS, MIN_BACKOFF_MS * 2 ** Math.min(this.failures - 1, 6));
    this.logger.warn({ err: error, retryInMs: delay }, 'Activity LISTEN connection unavailable; streams wait for it (and re-read when it returns)');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  /** A connection can look open and be dead; one that does not answer a query in time is replaced. */
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
      // Destroying the socket makes pg emit 'end', but the connection is dropped here in any case.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      this.lost(client, error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  private dispatch(payload: string): void {
    const second = payload.indexOf('/', payload.indexOf('/') + 1);
    const key = second === -1 ? payload : payload.slice(0, second);
    const set = this.subscribers.get(key);
    if (!set) return;
    for (const listener of [...set]) this.call(listener);
  }

  private wakeAll(): void {
    for (const set of [...this.subscribers.values()]) for (const listener of [...set]) this.call(listener);
  }

  private call(listener: ActivityListener): void {
    try {
      listener();
    } catch (error) {
      this.logger.error({ err: error }, 'Activity listener failed');
    }
  }
}
