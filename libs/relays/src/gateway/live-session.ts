import { Logger } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import type { JobResultMessage, RelayMessage, ServerMessage } from '../protocol/relay-protocol';
import type { CredentialMatch } from '../relays.repository';
import type { RelaysService } from '../relays.service';

/** The most jobs one claim takes. */
const JOBS_PER_CLAIM = 500;
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
  /** Jobs sent over this session and not answered yet. */
  private readonly sent = new Set<string>();
  /** A claim of pending jobs is running; another was asked for meanwhile. */
  private claiming = false;
  private claimAgain = false;
  /** Answer bytes received and not recorded yet; past RECORDING_BYTES the call stops reading. */
  private recording = 0;

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
    this.write({ welcome: { sessionId: this.sessionId, relayId: this.relay.id, heartbeatSeconds } });
    this.timer = setInterval(() => void this.beat(), heartbeatSeconds * 1000);
    this.timer.unref();
    void this.sendPending();
  }

  /**
   * Sends the relay's pending jobs, as many as are waiting, in claims of up to JOBS_PER_CLAIM. Calls
   * made while a claim runs are folded into one more claim after it, so a burst of notifications
   * costs a few statements, not one each.
   */
  async sendPending(): Promise<void> {
    if (this.ended) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    try {
      let full: boolean;
      do {
        this.claimAgain = false;
        const jobs = await this.relays.claimJobs(this.relay.organizationId, this.relay.id, JOBS_PER_CLAIM);
        full = jobs.length === JOBS_PER_CLAIM;
        for (const job of jobs) {
          this.sent.add(job.id);
          this.write({
            job: {
              jobId: job.id,
              integrationId: job.integrationId,
              capabilityId: job.capabilityId,
              capabilityVersion: job.capabilityVersion,
              path: job.request.path,
              query: job.request.query.map(([name, value]) => ({ name, value })),
              timeoutMs: job.request.timeoutMs,
              maxBytes: job.request.maxBytes,
            },
          });
        }
        // Ended while claiming: the jobs go back as failed.
        if (this.ended && jobs.length > 0) {
          await this.relays.failJobs(
            this.relay.organizationId,
            jobs.map((j) => j.id),
            "The relay's session ended before the job was sent",
          );
        }
      } while ((this.claimAgain || full) && !this.ended);
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: sending jobs failed: ${(error as Error).message}`);
    } finally {
      this.claiming = false;
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
    // Released before the call ends, so the relay's next connection finds the registration free.
    try {
      await this.relays.failJobs(this.relay.organizationId, [...this.sent], "The relay's session ended before it answered");
      this.sent.clear();
      await this.relays.releaseSession(this.relay.organizationId, this.relay.id, this.sessionId);
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: releasing session ${this.sessionId} failed: ${(error as Error).message}`);
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
        const advertised = await this.relays.advertise(this.relay.organizationId, this.relay.id, message.hello.capabilities ?? []);
        this.logger.log(`Relay ${this.relay.id}: advertises ${advertised.length} capabilities`);
      } else if (message.result) {
        if (this.sent.delete(message.result.jobId)) await this.record(message.result);
      } else if (message.drain) {
        await this.end(null);
      }
    } catch (error) {
      this.logger.warn(`Relay ${this.relay.id}: ${(error as Error).message}`);
    }
  }

  /**
   * Records an answer. While more than RECORDING_BYTES of answers wait for the database, the call
   * stops reading: HTTP/2 flow control then holds the relay's further answers on its side.
   */
  private async record(result: JobResultMessage): Promise<void> {
    const bytes = result.body?.length ?? 0;
    this.recording += bytes;
    if (this.recording > RECORDING_BYTES) this.call.pause();
    try {
      await this.relays.recordResult(this.relay.organizationId, result);
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
