import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '@svc/platform';
import type { RelayJobStatus } from './relay-job.entity';
import type { RelayJobDescription } from './relays.repository';

/** A read waiting for the API process that holds its relay's session. */
export interface QueuedJob extends RelayJobDescription {
  /** The answers channel of the process waiting for it. */
  replyTo: string;
  /** When the waiting read gives up (ms since the epoch): a job taken later is not sent. */
  deadline: number;
}

/** How a job ended, as its waiting read takes it. */
export interface RelayAnswer {
  organizationId: string;
  jobId: string;
  status: RelayJobStatus;
  /** The HTTP status the system answered with (null when the relay read nothing). */
  resultStatus: number | null;
  truncated: boolean | null;
  error: string | null;
  body: Buffer | null;
}

/** What the API processes are told: a relay has jobs, or one of its jobs was given up. */
export type RelayWake = { kind: 'job'; organizationId: string; relayId: string } | { kind: 'cancel'; organizationId: string; relayId: string; jobId: string };

/** How long an answer waits in Redis for its read (which takes it within milliseconds unless it is gone). */
const ANSWER_TTL_MS = 60_000;
/** How long a relay's list of jobs lasts after the last job was queued (no session took them: a relay gone for good). */
const JOBS_TTL_MS = 15 * 60_000;

/** A buffer behind its length (4 bytes, big-endian). */
function lengthPrefixed(buffer: Buffer): Buffer[] {
  const length = Buffer.allocUnsafe(4);
  length.writeUInt32BE(buffer.length);
  return [length, buffer];
}

/** An answer as stored: its fields as JSON behind their length, then the body's bytes. */
function pack(answer: RelayAnswer): Buffer {
  const { body, ...fields } = answer;
  return Buffer.concat([...lengthPrefixed(Buffer.from(JSON.stringify(fields))), body ?? Buffer.alloc(0)]);
}

function unpack(stored: Buffer): RelayAnswer {
  const length = stored.readUInt32BE(0);
  const fields = JSON.parse(stored.subarray(4, 4 + length).toString()) as Omit<RelayAnswer, 'body'>;
  return { ...fields, body: fields.resultStatus !== null ? stored.subarray(4 + length) : null };
}

/** Answers in one message: each packed answer behind its length. */
function frame(packed: Buffer[]): Buffer {
  return Buffer.concat(packed.flatMap(lengthPrefixed));
}

function unframe(message: Buffer): RelayAnswer[] {
  const answers: RelayAnswer[] = [];
  for (let at = 0; at + 4 <= message.length;) {
    const length = message.readUInt32BE(at);
    answers.push(unpack(message.subarray(at + 4, at + 4 + length)));
    at += 4 + length;
  }
  return answers;
}

/** An answer's field in its process's hash of kept answers. */
const field = (organizationId: string, jobId: string) => `${organizationId}/${jobId}`;

/**
 * Carries relay jobs between the processes that read through relays and the API process holding
 * each relay's session, through Redis: a job waits in its relay's list until that process takes
 * it (a list pop takes each job once, whichever process holds the session); the API processes
 * hear of new jobs and cancels on one channel; answers go to the process waiting for them on its
 * own channel, with a copy kept until it has them. PostgreSQL keeps each job's record once
 * it has ended (RelaysRepository.recordOutcomes); the answer's bytes never go there.
 */
@Injectable()
export class RelayTransport implements OnApplicationShutdown {
  private readonly logger = new Logger('RelayTransport');
  /** This process's answers channel. */
  readonly replyTo: string;
  private readonly prefix: string;
  private commands?: Redis;
  private subscriber?: Redis;
  private readonly channels = new Map<string, (message: Buffer) => void>();
  private readonly reconnected = new Set<() => void>();

  constructor(private readonly config: AppConfig) {
    this.prefix = `${config.SVC_QUEUE_PREFIX}:relay`;
    this.replyTo = `${this.prefix}:answers:${randomUUID()}`;
  }

  private jobsKey(organizationId: string, relayId: string): string {
    return `${this.prefix}:jobs:${organizationId}:${relayId}`;
  }

  /** Where a process's answers are kept until it has them (a copy of what its channel carries). */
  private keptKey(replyTo: string): string {
    return `${replyTo}:kept`;
  }

  private get wakeChannel(): string {
    return `${this.prefix}:wake`;
  }

  private redis(): Redis {
    this.commands ??= new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: 2, connectTimeout: 2_000 });
    return this.commands;
  }

  /** Listens on `channel`; after a reconnection `reconnected` runs, since messages may have been missed meanwhile. */
  private listen(channel: string, heard: (message: Buffer) => void, reconnected: () => void): void {
    if (!this.subscriber) {
      const subscriber = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null, connectTimeout: 2_000 });
      let ready = false;
      subscriber.on('ready', () => {
        if (ready) for (const again of this.reconnected) again();
        ready = true;
      });
      subscriber.on('error', (error: Error) => this.logger.warn(`Relay job channel: ${error.message}`));
      subscriber.on('messageBuffer', (from: Buffer, message: Buffer) => this.channels.get(from.toString())?.(message));
      this.subscriber = subscriber;
    }
    this.channels.set(channel, heard);
    this.reconnected.add(reconnected);
    void this.subscriber.subscribe(channel).catch((error: Error) => this.logger.warn(`Relay job channel ${channel}: ${error.message}`));
  }

  /**
   * Hears the answers to this process's jobs and drops their kept copies; `reconnected` after a gap
   * (answers sent meanwhile are kept: `keptAnswers` finds them).
   */
  onAnswers(heard: (answers: RelayAnswer[]) => void, reconnected: () => void): void {
    this.listen(
      this.replyTo,
      (message) => {
        let answers: RelayAnswer[];
        try {
          answers = unframe(message);
        } catch {
          return; // Not answers.
        }
        if (answers.length === 0) return;
        this.redis()
          .hdel(this.keptKey(this.replyTo), ...answers.map((a) => field(a.organizationId, a.jobId)))
          .catch((error: Error) => this.logger.warn(`Kept relay answers not dropped: ${error.message}`));
        heard(answers);
      },
      reconnected,
    );
  }

  /** Hears new jobs and cancels for relays (API processes); `reconnected` after a gap. */
  onWake(heard: (wake: RelayWake) => void, reconnected: () => void): void {
    this.listen(
      this.wakeChannel,
      (message) => {
        try {
          heard(JSON.parse(message.toString()) as RelayWake);
        } catch {
          // Not a wake.
        }
      },
      reconnected,
    );
  }

  /** Queues jobs in their relays' lists and wakes the API processes once per relay. One round trip. */
  async queue(jobs: QueuedJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const byRelay = new Map<string, QueuedJob[]>();
    for (const job of jobs) {
      const key = this.jobsKey(job.organizationId, job.relayId);
      byRelay.set(key, [...(byRelay.get(key) ?? []), job]);
    }
    const pipeline = this.redis().pipeline();
    for (const [key, queued] of byRelay) {
      pipeline.rpush(key, ...queued.map((j) => JSON.stringify(j)));
      pipeline.pexpire(key, JOBS_TTL_MS);
      const { organizationId, relayId } = queued[0];
      pipeline.publish(this.wakeChannel, JSON.stringify({ kind: 'job', organizationId, relayId } satisfies RelayWake));
    }
    await this.exec(pipeline);
  }

  /** Takes up to `limit` of the relay's queued jobs, oldest first; each job is taken once. */
  async take(organizationId: string, relayId: string, limit: number): Promise<QueuedJob[]> {
    const taken = await this.redis().lpop(this.jobsKey(organizationId, relayId), limit);
    return (taken ?? []).map((j) => JSON.parse(j) as QueuedJob);
  }

  /** Takes a job back out of its relay's list; false when it is no longer there (a session took it). */
  async withdraw(job: QueuedJob): Promise<boolean> {
    return (await this.redis().lrem(this.jobsKey(job.organizationId, job.relayId), 1, JSON.stringify(job))) > 0;
  }

  /** Tells the API processes that a job was given up (the one that sent it tells its relay). */
  async cancel(organizationId: string, relayId: string, jobId: string): Promise<void> {
    await this.redis().publish(this.wakeChannel, JSON.stringify({ kind: 'cancel', organizationId, relayId, jobId } satisfies RelayWake));
  }

  /**
   * Sends answers to the processes waiting for them, one message each, and keeps a copy in that
   * process's hash until it has them (a message published while it reconnects is lost). One round trip.
   */
  async answer(answers: { replyTo: string; answer: RelayAnswer }[]): Promise<void> {
    if (answers.length === 0) return;
    const byProcess = new Map<string, { fields: string[]; packed: Buffer[] }>();
    for (const { replyTo, answer } of answers) {
      const to = byProcess.get(replyTo) ?? { fields: [], packed: [] };
      to.fields.push(field(answer.organizationId, answer.jobId));
      to.packed.push(pack(answer));
      byProcess.set(replyTo, to);
    }
    const pipeline = this.redis().pipeline();
    for (const [replyTo, { fields, packed }] of byProcess) {
      const kept = this.keptKey(replyTo);
      pipeline.hset(kept, ...fields.flatMap((f, i) => [f, packed[i]]));
      pipeline.pexpire(kept, ANSWER_TTL_MS);
      pipeline.publish(replyTo, frame(packed));
    }
    await this.exec(pipeline);
  }

  /** Takes this process's kept answers for these jobs (each once); undefined where none is kept. One round trip. */
  async keptAnswers(jobs: { organizationId: string; jobId: string }[]): Promise<(RelayAnswer | undefined)[]> {
    const kept = this.keptKey(this.replyTo);
    const fields = jobs.map((j) => field(j.organizationId, j.jobId));
    const [found] = (await this.exec(
      this.redis()
        .pipeline()
        .hmgetBuffer(kept, ...fields)
        .hdel(kept, ...fields),
    )) as [(Buffer | null)[]];
    return found.map((stored) => (stored ? unpack(stored) : undefined));
  }

  private async exec(pipeline: ReturnType<Redis['pipeline']>): Promise<unknown[]> {
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0]!;
    return results.map(([, value]) => value);
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber?.disconnect();
    if (this.commands) await this.commands.quit().catch(() => this.commands?.disconnect());
  }
}
