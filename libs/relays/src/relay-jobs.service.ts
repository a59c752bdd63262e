import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, newId, NotificationChannel, StatementBatcher } from '@svc/platform';
import { capabilityForPath } from './protocol/capabilities';
import { FinishedJob, JobReadiness, NewRelayJob, RELAY_CHANNEL, RelaysRepository } from './relays.repository';
import { RelaysService } from './relays.service';

/** A read through a relay: what a tool asks for. */
export interface RelayReadRequest {
  organizationId: string;
  relayId: string;
  integrationId: string;
  integrationType: string;
  /** Relative to the system's base URL (which only the relay knows), no leading slash. */
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
  /** Cancellation and the tool's timeout (an abort whose reason is a TimeoutError counts as timed out). */
  signal: AbortSignal;
  /** The most the relay reads of the answer. */
  maxBytes: number;
  /** How long the relay may wait for its system. */
  timeoutMs: number;
}

export interface RelayReadAnswer {
  status: number;
  body: Buffer;
  /** False when the relay cut the answer at maxBytes. */
  complete: boolean;
}

/** A read through a relay that could not be made; the message is safe to show and store. */
export class RelayReadError extends Error {}

/** How often a waiting read looks at its job's row, in case a notification was lost. */
const RECHECK_MS = 1_000;
/**
 * The relay gives up on a job this long after the service does: the service's own deadline ends the
 * run and tells the relay to cancel, and the relay's deadline only stops a job whose cancel was lost.
 */
const RELAY_DEADLINE_GRACE_MS = 5_000;
/** The most reads queued, or answers taken, by one statement. */
const JOBS_PER_STATEMENT = 200;

/**
 * Runs reads as relay jobs (the worker's side): the job is recorded and announced with NOTIFY;
 * the API process that holds the relay's session sends it and records the answer; this process
 * hears of it by NOTIFY (or finds it on a periodic look) and returns it. A relay that is offline
 * or does not offer the capability fails the read at once. Reads made together share their
 * statements: the jobs are queued by one (which checks each relay and notifies each once), their
 * answers taken by another.
 */
@Injectable()
export class RelayJobsService implements OnApplicationShutdown {
  private channel?: NotificationChannel;
  private readonly waiting = new Map<string, () => void>();
  /** Reads on their way to becoming jobs: queued together, one statement for those that arrive together. */
  private readonly queue: StatementBatcher<NewRelayJob, JobReadiness | undefined>;
  /** Answers being taken: one statement for the jobs woken together. */
  private readonly results: StatementBatcher<{ organizationId: string; jobId: string }, FinishedJob | undefined>;

  constructor(
    private readonly repository: RelaysRepository,
    relays: RelaysService,
    private readonly config: AppConfig,
  ) {
    this.queue = new StatementBatcher((jobs) => this.repository.queueJobs(jobs, relays.leaseSeconds), { maxItems: JOBS_PER_STATEMENT, concurrency: 2 });
    this.results = new StatementBatcher(
      async (wanted) => {
        const finished = new Map((await this.repository.takeResults(wanted)).map((job) => [`${job.organizationId}/${job.jobId}`, job]));
        return wanted.map((w) => finished.get(`${w.organizationId}/${w.jobId}`));
      },
      { maxItems: JOBS_PER_STATEMENT, concurrency: 2 },
    );
  }

  async read(request: RelayReadRequest): Promise<RelayReadAnswer> {
    const capability = capabilityForPath(request.integrationType, request.path);
    if (!capability) throw new RelayReadError(`No relay capability reads ${request.path}`);
    if (request.signal.aborted) throw request.signal.reason;
    this.listen();
    const jobId = newId();
    const query = request.query.map(([name, value]) => [name, value] as [string, string]);
    let wake: () => void = () => undefined;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    this.waiting.set(jobId, () => wake());
    try {
      const ready = await this.queue.add({
        organizationId: request.organizationId,
        id: jobId,
        relayId: request.relayId,
        integrationId: request.integrationId,
        capabilityId: capability.capabilityId,
        capabilityVersion: capability.capabilityVersion,
        source: `/${request.path}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}`,
        request: { path: request.path, query, timeoutMs: request.timeoutMs + RELAY_DEADLINE_GRACE_MS, maxBytes: request.maxBytes },
      });
      if (!ready) throw new RelayReadError('The relay this integration is bound to does not exist');
      if (!ready.live) {
        throw new RelayReadError(
          `Relay ${ready.name} is offline (${ready.lastSeenAt ? `last seen ${ready.lastSeenAt.toISOString()}` : 'never connected'}): nothing can be read through it until it reconnects`,
        );
      }
      if (!ready.advertised)
        throw new RelayReadError(
          `Relay ${ready.name} does not offer ${capability.capabilityId} for this integration (its local configuration does not allow it)`,
        );
      const aborted = new Promise<never>((_, reject) => {
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      for (;;) {
        const timer = new Promise<void>((resolve) => setTimeout(resolve, RECHECK_MS).unref());
        try {
          await Promise.race([woken, timer, aborted]);
        } catch (reason) {
          const timedOut = (reason as Error | undefined)?.name === 'TimeoutError';
          const error = timedOut ? `No answer from relay ${ready.name} within ${request.timeoutMs} ms` : 'Cancelled';
          if (await this.repository.finishJob(request.organizationId, jobId, { status: timedOut ? 'timed_out' : 'cancelled', error })) {
            await this.repository.notifyCancel(request.organizationId, request.relayId, jobId);
          }
          throw reason;
        }
        woken = new Promise<void>((resolve) => (wake = resolve));
        const job = await this.results.add({ organizationId: request.organizationId, jobId });
        if (!job) continue;
        if (job.status === 'succeeded' || (job.status === 'failed' && job.resultStatus !== null)) {
          return { status: job.resultStatus ?? 0, body: job.body ?? Buffer.alloc(0), complete: !job.truncated };
        }
        throw new RelayReadError(`Through relay ${ready.name}: ${job.error ?? job.status}`);
      }
    } finally {
      this.waiting.delete(jobId);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.channel?.stop();
  }

  private listen(): void {
    if (this.channel) return;
    this.channel = new NotificationChannel(
      this.config.DATABASE_URL,
      RELAY_CHANNEL,
      {
        notified: (payload) => {
          try {
            const message = JSON.parse(payload) as { kind?: string; jobId?: string; jobIds?: unknown };
            if (message.kind !== 'result') return;
            if (message.jobId) this.waiting.get(message.jobId)?.();
            if (Array.isArray(message.jobIds)) for (const jobId of message.jobIds) if (typeof jobId === 'string') this.waiting.get(jobId)?.();
          } catch {
            // Not ours.
          }
        },
        listeningChanged: () => {
          for (const wake of this.waiting.values()) wake();
        },
      },
      'svc-relay-jobs-listen',
    );
    this.channel.start();
  }
}
