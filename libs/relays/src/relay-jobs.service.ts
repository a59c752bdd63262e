import { Injectable } from '@nestjs/common';
import { newId, StatementBatcher } from '@svc/platform';
import { capabilityForPath } from './protocol/capabilities';
import { JobReadiness, RelaysRepository } from './relays.repository';
import { jobRecord, RelaysService } from './relays.service';
import { QueuedJob, RelayAnswer, RelayTransport } from './relay-transport';

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

/** How often a waiting read looks for its answer, in case the word of it was lost. */
const RECHECK_MS = 1_000;
/**
 * The relay gives up on a job this long after the service does: the service's own deadline ends the
 * run and tells the relay to cancel, and the relay's deadline only stops a job whose cancel was lost.
 */
const RELAY_DEADLINE_GRACE_MS = 5_000;
/** The most reads checked and queued, or answers taken, by one round trip. */
const JOBS_PER_STATEMENT = 200;

/**
 * Runs reads as relay jobs (the side of the process reading): the relay is checked in PostgreSQL
 * (a live session, the capability advertised) and the job queued through the relay job transport
 * (Redis); the API process that holds the relay's session sends it, records its outcome and leaves
 * the answer, and this process hears of it on its own channel (or finds it on a periodic look)
 * and returns it. A relay that is offline or does not offer the capability fails the read at
 * once; a read given up (its timeout, a cancel) records that outcome itself and tells the relay.
 * Reads made together share their round trips.
 */
@Injectable()
export class RelayJobsService {
  private listening = false;
  /** Reads waiting for their answers: called with the answer heard, or with nothing to look for it. */
  private readonly waiting = new Map<string, (answer?: RelayAnswer) => void>();
  /** Reads on their way to becoming jobs: checked and queued together. */
  private readonly queue: StatementBatcher<QueuedJob, JobReadiness | undefined>;
  /** Answers being taken: one round trip for the jobs woken together. */
  private readonly results: StatementBatcher<{ organizationId: string; jobId: string }, RelayAnswer | undefined>;

  constructor(
    private readonly repository: RelaysRepository,
    private readonly transport: RelayTransport,
    relays: RelaysService,
  ) {
    this.queue = new StatementBatcher(
      async (jobs) => {
        const readiness = await this.repository.readiness(jobs, relays.leaseSeconds);
        await this.transport.queue(jobs.filter((_, i) => readiness[i]?.live && readiness[i]?.advertised));
        return readiness;
      },
      { maxItems: JOBS_PER_STATEMENT, concurrency: 2 },
    );
    this.results = new StatementBatcher((wanted) => this.transport.keptAnswers(wanted), { maxItems: JOBS_PER_STATEMENT, concurrency: 2 });
  }

  async read(request: RelayReadRequest): Promise<RelayReadAnswer> {
    const capability = capabilityForPath(request.integrationType, request.path);
    if (!capability) throw new RelayReadError(`No relay capability reads ${request.path}`);
    if (request.signal.aborted) throw request.signal.reason;
    this.listen();
    const query = request.query.map(([name, value]) => [name, value] as [string, string]);
    const queuedAt = Date.now();
    const timeoutMs = request.timeoutMs + RELAY_DEADLINE_GRACE_MS;
    const job: QueuedJob = {
      organizationId: request.organizationId,
      id: newId(),
      relayId: request.relayId,
      integrationId: request.integrationId,
      capabilityId: capability.capabilityId,
      capabilityVersion: capability.capabilityVersion,
      source: `/${request.path}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}`,
      request: { path: request.path, query, timeoutMs, maxBytes: request.maxBytes },
      replyTo: this.transport.replyTo,
      queuedAt,
      deadline: queuedAt + timeoutMs,
    };
    const key = `${job.organizationId}/${job.id}`;
    let wake: (answer?: RelayAnswer) => void = () => undefined;
    let woken = new Promise<RelayAnswer | undefined>((resolve) => (wake = resolve));
    this.waiting.set(key, (answer) => wake(answer));
    try {
      const ready = await this.queue.add(job).catch((error: Error) => {
        throw new RelayReadError(`The read could not be queued for the relay: ${error.message}`);
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
        let timer: NodeJS.Timeout | undefined;
        const recheck = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), RECHECK_MS)));
        let heard: RelayAnswer | undefined;
        try {
          heard = await Promise.race([woken, recheck, aborted]);
        } catch (reason) {
          await this.giveUp(job, ready.name, request.timeoutMs, reason);
          throw reason;
        } finally {
          clearTimeout(timer);
        }
        woken = new Promise<RelayAnswer | undefined>((resolve) => (wake = resolve));
        const answer = heard ?? (await this.results.add({ organizationId: job.organizationId, jobId: job.id }));
        if (!answer) continue;
        if (answer.status === 'succeeded' || (answer.status === 'failed' && answer.resultStatus !== null)) {
          return { status: answer.resultStatus ?? 0, body: answer.body ?? Buffer.alloc(0), complete: !answer.truncated };
        }
        throw new RelayReadError(`Through relay ${ready.name}: ${answer.error ?? answer.status}`);
      }
    } finally {
      this.waiting.delete(key);
    }
  }

  /**
   * Records that the read gave up (timed out or cancelled) unless the job has an outcome already,
   * and then takes the job out of its relay's list or, when a session has taken it, tells the
   * relay to stop it; an answer kept for it meanwhile is dropped.
   */
  private async giveUp(job: QueuedJob, relayName: string, timeoutMs: number, reason: unknown): Promise<void> {
    const timedOut = (reason as Error | undefined)?.name === 'TimeoutError';
    const error = timedOut ? `No answer from relay ${relayName} within ${timeoutMs} ms` : 'Cancelled';
    // Best effort: the read ends with its own reason whatever becomes of the record or the cancel.
    try {
      const [recorded] = await this.repository.recordOutcomes([
        jobRecord(job, { status: timedOut ? 'timed_out' : 'cancelled', error, resultStatus: null, truncated: null }),
      ]);
      if (!recorded) await this.results.add({ organizationId: job.organizationId, jobId: job.id });
      else if (!(await this.transport.withdraw(job))) await this.transport.cancel(job.organizationId, job.relayId, job.id);
    } catch {
      await this.transport.cancel(job.organizationId, job.relayId, job.id).catch(() => undefined);
    }
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.transport.onAnswers(
      (answers) => {
        for (const answer of answers) this.waiting.get(`${answer.organizationId}/${answer.jobId}`)?.(answer);
      },
      () => {
        for (const wake of this.waiting.values()) wake();
      },
    );
  }
}
