import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, NotificationChannel } from '@svc/platform';
import { ACTIVITY_CHANNEL } from '../activity.service';

/** Wakes a subscriber: something may have been appended (or a notification may have been missed). */
export type ActivityListener = () => void;

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
  private readonly channel: NotificationChannel;
  private stopped = false;
  private readyWaiters: ((ready: boolean) => void)[] = [];

  constructor(config: AppConfig) {
    this.channel = new NotificationChannel(
      config.DATABASE_URL,
      ACTIVITY_CHANNEL,
      {
        notified: (payload) => {
          if (payload) this.dispatch(payload);
        },
        listeningChanged: (listening) => {
          if (!listening) return;
          for (const waiter of this.readyWaiters.splice(0)) waiter(true);
          // Whatever was notified before this LISTEN took effect was not seen here: every stream re-reads.
          this.wakeAll();
        },
      },
      'svc-activity-listener',
    );
  }

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
    return this.channel.listening;
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
    if (this.channel.listening) return true;
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
    this.subscribers.clear();
    for (const waiter of this.readyWaiters.splice(0)) waiter(false);
    await this.channel.stop();
  }

  private start(): void {
    if (!this.stopped) this.channel.start();
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
