import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig, InjectScopedRepository, InvalidInputError, ScopedRepository, sendError, toErrorResponse } from '@svc/platform';
import { ActivityService, envelopeOf } from '../activity.service';
import { InvestigationActivity, TERMINAL_EVENT_TYPES } from '../investigation-activity.entity';
import { ActivityNotifier } from './activity-notifier';

/**
 * The stream's timings. Heartbeat and write deadline come from SVC_STREAM_HEARTBEAT_SECONDS and
 * SVC_STREAM_WRITE_DEADLINE_SECONDS (defaults: the contract's 15 s and 10 s, decisions §7).
 */
export interface EventStreamTimings {
  /** A `: heartbeat` comment after this long without any write. */
  heartbeatMs: number;
  /** A write (an event batch or a heartbeat) the client has not taken within this drops the connection. */
  writeDeadlineMs: number;
  /** Rows read (and written) per batch. */
  batchSize: number;
  /** After a failed read (database unavailable), the stream stays open and reads again after this. */
  readRetryMs: number;
}

function timingsFrom(config: AppConfig): EventStreamTimings {
  return {
    heartbeatMs: config.SVC_STREAM_HEARTBEAT_SECONDS * 1000,
    writeDeadlineMs: config.SVC_STREAM_WRITE_DEADLINE_SECONDS * 1000,
    batchSize: 200,
    readRetryMs: 2_000,
  };
}

/** Optional provider that overrides some timings (tests). */
export const EVENT_STREAM_TIMINGS = Symbol('EVENT_STREAM_TIMINGS');

const MAX_SEQUENCE = 2 ** 31 - 1;
const HEARTBEAT = ': heartbeat\n\n';

export interface ServeEventStreamArgs {
  organizationId: string;
  investigationId: string;
  /** The raw `Last-Event-ID` header, if any. */
  lastEventId: string | undefined;
  req: Request;
  res: Response;
}

/** `undefined` for a malformed cursor; absent (or empty, which EventSource never sends) is 0. */
export function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined) return 0;
  const text = value.trim();
  if (text === '') return 0;
  if (!/^\d+$/.test(text)) return undefined;
  // Larger than any sequence the column can hold: past everything.
  return Math.min(Number(text), MAX_SEQUENCE);
}

function frame(row: InvestigationActivity): string {
  // JSON.stringify escapes CR and LF inside strings, so the envelope is one line.
  return `id: ${row.sequence}\nevent: ${row.type.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(envelopeOf(row))}\n\n`;
}

/**
 * One open stream. Holds a cursor, a heartbeat timer and its subscription; never more than one
 * batch of frames (kept small so a thousand idle streams cost little).
 */
class OpenStream {
  closed = false;
  private reading = false;
  private again = false;
  private writing = false;
  private failures = 0;
  private heartbeat?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private ending?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    private readonly owner: InvestigationEventStream,
    readonly organizationId: string,
    readonly investigationId: string,
    private readonly res: Response,
    private cursor: number,
  ) {}

  start(notifier: ActivityNotifier): void {
    this.res.once('close', () => this.cleanup());
    this.heartbeat = setTimeout(() => this.beat(), this.owner.timings.heartbeatMs);
    // Subscribe before the first read: whatever commits after it wakes this stream.
    this.unsubscribe = notifier.subscribe(this.organizationId, this.investigationId, () => this.wake());
    this.wake();
  }

  wake(): void {
    if (this.closed || this.res.writableEnded) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  /** Ends the response normally (terminal event, shutdown); a client that does not take the rest is dropped. */
  finish(): void {
    if (this.closed || this.res.writableEnded) return;
    this.stopTimers();
    this.res.end();
    if (this.res.writableFinished) return;
    this.ending = setTimeout(() => this.drop(), this.owner.timings.writeDeadlineMs);
    this.ending.unref();
  }

  /** Destroys the connection: the client reconnects from its last processed sequence. */
  drop(): void {
    this.cleanup();
    this.res.destroy();
  }

  private async pump(): Promise<void> {
    this.reading = true;
    try {
      do {
        this.again = false;
        const { batchSize } = this.owner.timings;
        const { rows, frames } = await this.owner.readAfter(this.organizationId, this.investigationId, this.cursor, batchSize);
        if (this.closed || this.res.writableEnded) return;
        // Nothing new yet; a wake that came during this read (a commit after its snapshot) reads again.
        if (rows.length === 0) continue;
        let chunk = '';
        let last = this.cursor;
        let terminal = false;
        for (const [i, row] of rows.entries()) {
          chunk += frames[i];
          last = row.sequence;
          if (TERMINAL_EVENT_TYPES.includes(row.type)) {
            terminal = true;
            break;
          }
        }
        if (!(await this.send(chunk))) return;
        this.cursor = last;
        if (terminal) {
          this.finish();
          return;
        }
        if (rows.length === batchSize) this.again = true;
      } while (this.again && !this.closed);
      this.failures = 0;
    } catch (error) {
      if (this.closed) return;
      // Keep the client: it would reconnect into the same failure. Read again a little later.
      this.failures += 1;
      const delay = Math.min(this.owner.timings.readRetryMs * this.failures, 10 * this.owner.timings.readRetryMs);
      if (this.failures === 1)
        this.owner.logger.warn({ err: error, investigationId: this.investigationId, retryInMs: delay }, 'Event stream could not read activity; retrying');
      this.retry = setTimeout(() => {
        this.retry = undefined;
        this.wake();
      }, delay);
    } finally {
      this.reading = false;
    }
  }

  /**
   * Writes one batch (or a heartbeat). Resolves true once the client took it (or the socket
   * buffered it); false when the stream closed or the client did not drain within the deadline,
   * in which case the connection is dropped.
   */
  private send(chunk: string): boolean | Promise<boolean> {
    if (this.closed || this.res.writableEnded) return false;
    const flushed = this.res.write(chunk);
    this.heartbeat?.refresh();
    if (flushed) return true;
    this.writing = true;
    return new Promise<boolean>((resolve) => {
      const settle = (ok: boolean) => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        this.writing = false;
        if (ok) this.heartbeat?.refresh();
        resolve(ok);
      };
      const onDrain = () => settle(true);
      const onClose = () => settle(false);
      const timer = setTimeout(() => {
        settle(false);
        this.owner.logger.debug({ investigationId: this.investigationId }, 'Event stream client did not read within the write deadline; dropped');
        this.drop();
      }, this.owner.timings.writeDeadlineMs);
      this.res.once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }

  private beat(): void {
    if (this.closed) return;
    // A write still waiting for the client has its own deadline; the heartbeat waits for it.
    if (this.writing) {
      this.heartbeat?.refresh();
      return;
    }
    void this.send(HEARTBEAT);
  }

  private stopTimers(): void {
    if (this.heartbeat) clearTimeout(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = undefined;
    this.retry = undefined;
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    if (this.ending) clearTimeout(this.ending);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.owner.forget(this);
  }
}

/**
 * Serves an investigation's server-sent event stream from its durable activity rows (decisions §7).
 * The caller (the controller) has checked permission and that the investigation exists in the
 * caller's Organization, and passes the raw Express request and response; this writes the response.
 */
@Injectable()
export class InvestigationEventStream implements BeforeApplicationShutdown, OnApplicationShutdown {
  readonly logger = new Logger(InvestigationEventStream.name);
  readonly timings: EventStreamTimings;
  /** The `retry:` field: what an EventSource waits before reconnecting (SVC_STREAM_RETRY_MS, decisions §7). */
  private readonly retryMs: number;
  private readonly open = new Set<OpenStream>();
  private readonly reads = new Map<string, Promise<{ rows: InvestigationActivity[]; frames: string[] }>>();
  private closing = false;
  private drained?: () => void;

  constructor(
    readonly activity: ActivityService,
    private readonly notifier: ActivityNotifier,
    @InjectScopedRepository(InvestigationActivity) private readonly activityRows: ScopedRepository<InvestigationActivity>,
    config: AppConfig,
    @Optional() @Inject(EVENT_STREAM_TIMINGS) timings?: Partial<EventStreamTimings>,
  ) {
    this.timings = { ...timingsFrom(config), ...timings };
    this.retryMs = config.SVC_STREAM_RETRY_MS;
  }

  /**
   * One read for every stream of an investigation woken at the same cursor by the same
   * notification: a thousand streams of one investigation cost one query and one rendering per
   * event. A read is shared only within the turn that started it, so a stream woken by a later
   * notification never joins a read that began before that notification's commit.
   */
  readAfter(organizationId: string, investigationId: string, cursor: number, batchSize: number): Promise<{ rows: InvestigationActivity[]; frames: string[] }> {
    const key = `${organizationId}/${investigationId}/${cursor}/${batchSize}`;
    const shared = this.reads.get(key);
    if (shared) return shared;
    const read = this.activity
      .after(organizationId, investigationId, cursor, batchSize, { streamOnly: true })
      .then((rows) => ({ rows, frames: rows.map(frame) }));
    this.reads.set(key, read);
    queueMicrotask(() => this.reads.delete(key));
    return read;
  }

  /** Open streams in this process. */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Answers the request: 400 for a malformed `Last-Event-ID`, 204 when the cursor is at or past the
   * terminal event, otherwise the stream. Resolves once the answer is decided (the stream then runs
   * on its own until a terminal event, the client leaving, a missed write deadline or shutdown);
   * rejects only before anything was written (the exception filter then answers).
   */
  async serve(args: ServeEventStreamArgs): Promise<void> {
    const { organizationId, investigationId, req, res } = args;
    const cursor = parseLastEventId(args.lastEventId);
    if (cursor === undefined) {
      sendError(res, toErrorResponse(new InvalidInputError('Last-Event-ID must be a non-negative integer: the sequence of the last event processed')));
      return;
    }
    const terminal = await this.terminalSequence(organizationId, investigationId);
    if (terminal !== undefined && terminal <= cursor) {
      // EventSource stops reconnecting on 204.
      res.status(204).end();
      return;
    }
    // The client may have left while the cursor was checked.
    if (res.headersSent || res.writableEnded || res.destroyed || req.socket.destroyed) return;

    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.removeHeader('Content-Length');
    res.removeHeader('Content-Encoding');
    // Streams outlive ordinary request timeouts; frames go out as written.
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    res.write(`retry: ${this.retryMs}\n\n`);

    if (this.closing) {
      // Shutting down: the client reconnects (to this or another instance) after `retry`.
      res.end();
      return;
    }
    const stream = new OpenStream(this, organizationId, investigationId, res, cursor);
    this.open.add(stream);
    stream.start(this.notifier);
  }

  /** Ends every open stream (clients reconnect after `retry` and resume); resolves once they closed or were dropped. */
  async closeAll(): Promise<void> {
    this.closing = true;
    if (this.open.size === 0) return;
    const done = new Promise<void>((resolve) => {
      this.drained = resolve;
    });
    for (const stream of [...this.open]) stream.finish();
    const bound = new Promise<void>((resolve) => setTimeout(resolve, this.timings.writeDeadlineMs + 1000).unref());
    await Promise.race([done, bound]);
    for (const stream of [...this.open]) stream.drop();
  }

  /** Before the HTTP server closes (it waits for open connections). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  /** @internal Called by a stream once it closed. */
  forget(stream: OpenStream): void {
    this.open.delete(stream);
    if (this.open.size === 0 && this.drained) {
      this.drained();
      this.drained = undefined;
    }
  }

  private async terminalSequence(organizationId: string, investigationId: string): Promise<number | undefined> {
    const row = await this.activityRows
      .query(organizationId, 'a')
      .select('a.sequence', 'sequence')
      .andWhere('a.investigation_id = :investigationId AND a.type IN (:...types)', { investigationId, types: TERMINAL_EVENT_TYPES })
      .orderBy('a.sequence', 'ASC')
      .limit(1)
      .getRawOne<{ sequence: number }>();
    return row ? Number(row.sequence) : undefined;
  }
}
