import { Logger } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { jobBatches } from '../protocol/batches';
import type { JobMessage, JobResultMessage, RelayMessage, ServerMessage } from '../protocol/relay-protocol';
import type { CredentialMatch } from '../relays.repository';
import type { RelaysService } from '../relays.service';
import type { QueuedJob } from '../relay-transport';

/** The most jobs one take takes. */
const JOBS_PER_TAKE = 500;
/** Answer bytes a session holds while they are recorded before it stops reading from the relay. */
const RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * One relay's session on this API process: the Connect stream, its heartbeats both ways, what the
 * relay advertised. It ends when the relay ends the call, stops answering for three heartbeats,
 * or when the registration's session is no longer this one (cleared by an Admin); on ending it
 * releases the registration if it still holds it.
 */
export class LiveSession {
  private readonly logger = new Logger('RelaySession');
  private timer?: NodeJS.Timeout;
  private lastHeard = Date.now();
  private ended = false;
  /** Jobs sent over this session and not answered yet, by id. */
  private readonly sent = new Map<string, QueuedJob>();
  /** A take of queued jobs is running; another was asked for meanwhile. */
  private taking = false;
  private takeAgain = false;
  /** Answer bytes received and not recorded yet; past RECORDING_BYTES the call stops reading. */
  private recording = 0;
  /** The relay said (Hello) that it takes jobs several to a message. */
  private jobBatches = false;

  constructor(
    private readonly call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>,
    readonly relay: CredentialMatch,
    readonly sessionId: string,
    private readonly relays: RelaysService,
    private readonly onEnded: (session: LiveSession) => void,
  ) {}

  start(): void {
    const heartbeatSeconds = this.relays.heartbeatSeconds;
    this.call.on('data', (message: RelayMessage) => void this.received(message));
    this.call.on('end', () => void this.end(null));
    this.call.on('error', () => void this.end(null));
    this.call.on('cancelled', () => void this.end(null));
    this.write({ welcome: { sessionId: this.sessionId, relayId: this.relay.id, heartbeatSeconds, resultBatches: true } });
    this.timer = setInterval(() => void this.beat(), heartbeatSeconds * 1000);
    this.timer.unref();
    void this.sendPending();
  }

  /**
   * Sends the relay's queued jobs, as many as are waiting, in takes of up to JOBS_PER_TAKE; a job
   * whose read has already given up is dropped. Calls made while a take runs are folded into one
   * more take after it, so a burst of wakes costs a few round trips, not one each.
   */
  async sendPending(): Promise<void> {
    if (this.ended) return;
    if (this.taking) {
      this.takeAgain = true;
      return;
    }
    this.taking = true;
    try {
      let full: boolean;
      do {
        this.takeAgain = false;
        const jobs = await this.relays.takeJobs(this.relay.organizationId, this.relay.id, JOBS_PER_TAKE);
        full = jobs.length === JOBS_PER_TAKE;
        const now = Date.now();
        const live = jobs.filter((job) => job.deadline > now);
        // Ended while taking: the jobs go back to their reads as failed.
        if (this.ended) {
          await this.relays.failJobs(live, "The relay's session ended before the job was sent");
          break;
        }
        for (const job of live) this.sent.set(job.id, job);
        const messages = live.map(jobMessage);
        if (this.jobBatches) for (const batch of jobBatches(messages)) this.write(batch.length === 1 ? { job: batch[0] } : { jobs: { jobs: batch } });
        else for (const job of messages) this.write({ job });
      } while ((this.takeAgain || full) && !this.ended);
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: sending jobs failed: ${(error as Error).message}`);
    } finally {
      this.taking = false;
    }
  }

  /** Tells the relay to stop a job it was sent. */
  cancel(jobId: string): void {
    if (this.sent.delete(jobId)) this.write({ cancel: { jobId } });
  }

  /** Ends the session; `reason` is sent to the relay (Drain) when the server ends it. */
  async end(reason: string | null): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    this.onEnded(this);
    // Released before the call ends, so the relay's next connection finds the registration free,
    // and before the jobs it was sent fail, so the reads they answer find the relay offline.
    try {
      await this.relays.releaseSession(this.relay.organizationId, this.relay.id, this.sessionId);
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: releasing session ${this.sessionId} failed: ${(error as Error).message}`);
    }
    const unanswered = [...this.sent.values()];
    this.sent.clear();
    try {
      await this.relays.failJobs(unanswered, "The relay's session ended before it answered");
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: ${unanswered.length} jobs of session ${this.sessionId} not failed: ${(error as Error).message}`);
    }
    if (reason !== null) this.write({ drain: { reason } });
    try {
      this.call.end();
    } catch {
      // Already closed.
    }
    this.logger.log(`Relay ${this.relay.id}: session ${this.sessionId} ended${reason ? ` (${reason})` : ''}`);
  }

  /** Ends the session if the registration no longer names it. */
  async check(): Promise<void> {
    if (this.ended) return;
    if (!(await this.relays.touchSession(this.relay.organizationId, this.relay.id, this.sessionId))) await this.end('the session was ended by an Admin');
  }

  write(message: ServerMessage): void {
    if (!this.call.writable) return;
    try {
      this.call.write(message);
    } catch {
      // The call is closing; its end event follows.
    }
  }

  private async received(message: RelayMessage): Promise<void> {
    this.lastHeard = Date.now();
    try {
      if (message.hello) {
        this.jobBatches = message.hello.jobBatches === true;
        const advertised = await this.relays.advertise(this.relay.organizationId, this.relay.id, message.hello.capabilities ?? []);
        this.logger.log(`Relay ${this.relay.id}: advertises ${advertised.length} capabilities`);
      } else if (message.result) {
        await this.answered(message.result);
      } else if (message.results) {
        await Promise.all((message.results.results ?? []).map((result) => this.answered(result)));
      } else if (message.drain) {
        await this.end(null);
      }
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: ${(error as Error).message}`);
    }
  }

  /** Takes a result for a job this session sent (others, e.g. answered twice, are dropped). */
  private async answered(result: JobResultMessage): Promise<void> {
    const job = this.sent.get(result.jobId);
    if (!job) return;
    this.sent.delete(job.id);
    await this.record(job, result);
  }

  /**
   * Records an answer. While more than RECORDING_BYTES of answers wait for the database, the call
   * stops reading: HTTP/2 flow control then holds the relay's further answers on its side.
   */
  private async record(job: QueuedJob, result: JobResultMessage): Promise<void> {
    const bytes = result.body?.length ?? 0;
    this.recording += bytes;
    if (this.recording > RECORDING_BYTES) this.call.pause();
    try {
      await this.relays.recordResult(job, result);
    } finally {
      this.recording -= bytes;
      if (this.recording <= RECORDING_BYTES && this.call.isPaused()) this.call.resume();
    }
  }

  private async beat(): Promise<void> {
    if (this.ended) return;
    if (Date.now() - this.lastHeard > 3 * this.relays.heartbeatSeconds * 1000) return this.end('no heartbeat from the relay');
    try {
      if (!(await this.relays.touchSession(this.relay.organizationId, this.relay.id, this.sessionId))) return this.end('the session was ended by an Admin');
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: heartbeat not recorded: ${(error as Error).message}`);
    }
    this.write({ heartbeat: { sentAtMs: Date.now() } });
    // A job whose notification was missed is picked up here.
    await this.sendPending();
  }
}

/** A queued job as the relay is sent it. */
function jobMessage(job: QueuedJob): JobMessage {
  return {
    jobId: job.id,
    integrationId: job.integrationId,
    capabilityId: job.capabilityId,
    capabilityVersion: job.capabilityVersion,
    path: job.request.path,
    query: job.request.query.map(([name, value]) => ({ name, value })),
    timeoutMs: job.request.timeoutMs,
    maxBytes: job.request.maxBytes,
  };
}
