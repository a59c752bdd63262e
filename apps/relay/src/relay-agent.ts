import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Logger } from 'pino';
import {
  CapabilityMessage,
  capabilityDefinition,
  JobMessage,
  JobResultMessage,
  RELAY_INSTANCE_METADATA,
  RELAY_VERSION_METADATA,
  relayClient,
  RelayMessage,
  RelayServiceClient,
  resultBatches,
  ServerMessage,
} from '@svc/relays/protocol';
import { JitteredBackoff } from './backoff';
import { LocalReader } from './local-reader';
import { RelayConfig } from './relay-config';

export const RELAY_VERSION = '0.1.0';

interface Registration {
  relayId: string;
  organizationId: string;
  name: string;
  credential: string;
}

/** Resolves once the call takes writes again, or closes. */
function drained(call: grpc.ClientDuplexStream<RelayMessage, ServerMessage>): Promise<void> {
  return new Promise<void>((resolve) => {
    const events = ['drain', 'close', 'error', 'status'] as const;
    const done = () => {
      for (const event of events) call.off(event, done);
      resolve();
    };
    for (const event of events) call.on(event, done);
  });
}

/** Why the relay cannot go on by itself (the operator must act): it exits with this. */
export class RelayFatalError extends Error {}

/**
 * The relay: registers once with its bootstrap token (keeping the credential in its state file),
 * then holds one session with the control plane, reconnecting with jittered backoff whenever it
 * drops, and runs the jobs it is sent through its LocalReader.
 */
export class RelayAgent {
  private readonly instance = randomUUID();
  private readonly backoff = new JitteredBackoff();
  private readonly reader: LocalReader;
  private readonly client: RelayServiceClient;
  /** Jobs received and not answered yet, running or waiting for a slot. */
  private readonly running = new Map<string, AbortController>();
  /** Jobs holding one of the maxConcurrentJobs slots. */
  private active = 0;
  /** Jobs waiting for a slot, in arrival order. */
  private readonly queued: (() => void)[] = [];
  private registration?: Registration;
  private call?: grpc.ClientDuplexStream<RelayMessage, ServerMessage>;
  private heartbeat?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private stopping = false;
  private fatal?: (error: Error) => void;
  /** The session's server takes results several to a message (its Welcome said so). */
  private resultBatches = false;
  /** Results ready in this turn of the event loop, to go together at its end. */
  private outgoing?: { call: grpc.ClientDuplexStream<RelayMessage, ServerMessage>; results: JobResultMessage[]; written: Promise<void> };

  constructor(
    private readonly config: RelayConfig,
    private readonly log: Logger,
  ) {
    this.reader = new LocalReader(config.integrations);
    const credentials = config.plaintext ? grpc.credentials.createInsecure() : grpc.credentials.createSsl(config.caFile ? readFileSync(config.caFile) : null);
    const options: grpc.ChannelOptions = {
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.max_receive_message_length': 32 * 1024 * 1024,
    };
    if (config.tls?.serverName) options['grpc.ssl_target_name_override'] = config.tls.serverName;
    this.client = relayClient(config.server, credentials, options);
  }

  /** Registers if needed and keeps a session until stop(); rejects on a fatal refusal. */
  run(): Promise<void> {
    return new Promise<void>((_resolve, reject) => {
      this.fatal = reject;
      void this.start().catch(reject);
    });
  }

  private async start(): Promise<void> {
    this.registration = this.readState() ?? (await this.register());
    this.log.info({ relayId: this.registration.relayId, organizationId: this.registration.organizationId }, 'registered; connecting');
    this.connect();
  }

  /** What this relay offers: every allowed capability of every configured integration. */
  capabilities(): CapabilityMessage[] {
    return this.config.integrations.flatMap((i) =>
      i.capabilities.map((capabilityId) => ({
        integrationId: i.integrationId,
        capabilityId,
        capabilityVersion: capabilityDefinition(capabilityId)!.capabilityVersion,
      })),
    );
  }

  private readState(): Registration | undefined {
    if (!existsSync(this.config.stateFile)) return undefined;
    const state = JSON.parse(readFileSync(this.config.stateFile, 'utf8')) as Registration;
    if (!state.credential || !state.relayId) throw new RelayFatalError(`The state file ${this.config.stateFile} holds no registration`);
    return state;
  }

  private writeState(registration: Registration): void {
    const temporary = `${this.config.stateFile}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(registration, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.config.stateFile);
  }

  private async register(): Promise<Registration> {
    const token = this.config.bootstrapToken;
    if (!token) throw new RelayFatalError('No registration yet and no bootstrap token: set bootstrapToken in the configuration or SVC_RELAY_BOOTSTRAP_TOKEN');
    for (;;) {
      if (this.stopping) throw new RelayFatalError('Stopped before registering');
      try {
        const registration = await new Promise<Registration>((resolve, reject) =>
          this.client.Register({ bootstrapToken: token, version: RELAY_VERSION }, new grpc.Metadata(), { deadline: Date.now() + 30_000 }, (error, response) =>
            error ? reject(error) : resolve(response!),
          ),
        );
        this.writeState(registration);
        this.backoff.reset();
        return registration;
      } catch (error) {
        const status = error as grpc.ServiceError;
        if (status.code === grpc.status.UNAUTHENTICATED) throw new RelayFatalError(`Registration refused: ${status.details}`);
        const delay = this.backoff.next();
        this.log.warn({ code: status.code, details: status.details, retryInMs: delay }, 'registration failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private connect(): void {
    if (this.stopping) return;
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${this.registration!.credential}`);
    metadata.set(RELAY_INSTANCE_METADATA, this.instance);
    metadata.set(RELAY_VERSION_METADATA, RELAY_VERSION);
    const call = this.client.Connect(metadata);
    this.call = call;
    let lastHeard = Date.now();
    let closed = false;
    const closedOnce = (code: grpc.status, details: string) => {
      if (closed) return;
      closed = true;
      clearInterval(this.heartbeat);
      if (this.call === call) this.call = undefined;
      this.disconnected(code, details);
    };
    call.on('data', (message: ServerMessage) => {
      lastHeard = Date.now();
      if (message.welcome) {
        this.backoff.reset();
        this.log.info({ sessionId: message.welcome.sessionId, relayId: message.welcome.relayId }, 'session established');
        this.resultBatches = message.welcome.resultBatches === true;
        call.write({ hello: { version: RELAY_VERSION, capabilities: this.capabilities(), jobBatches: true } });
        const everyMs = Math.max(1, message.welcome.heartbeatSeconds) * 1000;
        clearInterval(this.heartbeat);
        this.heartbeat = setInterval(() => {
          if (Date.now() - lastHeard > 3 * everyMs) {
            this.log.warn('no heartbeat from the control plane; reconnecting');
            call.cancel();
            return;
          }
          call.write({ heartbeat: { sentAtMs: Date.now() } });
        }, everyMs);
      } else if (message.job) {
        void this.runJob(call, message.job);
      } else if (message.jobs) {
        for (const job of message.jobs.jobs ?? []) void this.runJob(call, job);
      } else if (message.cancel) {
        this.running.get(message.cancel.jobId)?.abort();
      } else if (message.drain) {
        this.log.info({ reason: message.drain.reason }, 'the control plane ends the session');
      }
    });
    call.on('error', (error: grpc.ServiceError) => closedOnce(error.code, error.details));
    call.on('status', (status: grpc.StatusObject) => closedOnce(status.code, status.details));
  }

  private disconnected(code: grpc.status, details: string): void {
    if (this.stopping) return;
    if (code === grpc.status.UNAUTHENTICATED) {
      this.fatal?.(new RelayFatalError(`The control plane refused the registration credential: ${details}. Register again with a new bootstrap token.`));
      return;
    }
    const delay = this.backoff.next();
    if (code === grpc.status.ALREADY_EXISTS) this.log.warn({ retryInMs: delay }, 'session refused: another relay holds this registration (session conflict)');
    else this.log.info({ code, details, retryInMs: delay }, 'session ended; reconnecting');
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /**
   * Runs a job when one of the maxConcurrentJobs slots is free; until then it waits, in arrival
   * order (a job cancelled while waiting then ends at once, without reaching the local system).
   */
  private async runJob(call: grpc.ClientDuplexStream<RelayMessage, ServerMessage>, job: JobMessage): Promise<void> {
    const controller = new AbortController();
    this.running.set(job.jobId, controller);
    // A job that waits for a slot is logged on arrival; one that runs at once only at debug level
    // ("job done" follows it either way), so a busy relay writes one line per job.
    const waiting = this.active >= this.config.maxConcurrentJobs;
    this.log[waiting ? 'info' : 'debug']({ jobId: job.jobId, capabilityId: job.capabilityId, waiting }, 'job received');
    await this.slot();
    try {
      const result = await this.reader.run(job, controller);
      this.log.info({ jobId: job.jobId, capabilityId: job.capabilityId, ok: result.ok, status: result.status, error: result.error || undefined }, 'job done');
      // Flow control: while the connection does not take the answer, this job keeps its slot, so
      // no further job starts reading from the local system.
      await this.send(call, result);
    } finally {
      this.running.delete(job.jobId);
      this.release();
    }
  }

  /**
   * Sends a result; resolves once the connection has taken it. Results ready in the same turn go
   * together, several to a message when the server takes that.
   */
  private send(call: grpc.ClientDuplexStream<RelayMessage, ServerMessage>, result: JobResultMessage): Promise<void> {
    if (!this.resultBatches) return call.writable && !call.write({ result }) ? drained(call) : Promise.resolve();
    if (this.outgoing?.call !== call) {
      const outgoing = { call, results: [] as JobResultMessage[], written: Promise.resolve() };
      outgoing.written = new Promise<void>((resolve) =>
        setImmediate(() => {
          if (this.outgoing === outgoing) this.outgoing = undefined;
          let full = false;
          for (const batch of resultBatches(outgoing.results)) {
            if (call.writable && !call.write(batch.length === 1 ? { result: batch[0] } : { results: { results: batch } })) full = true;
          }
          resolve(full ? drained(call) : undefined);
        }),
      );
      this.outgoing = outgoing;
    }
    this.outgoing.results.push(result);
    return this.outgoing.written;
  }

  private async slot(): Promise<void> {
    if (this.active < this.config.maxConcurrentJobs) {
      this.active += 1;
      return;
    }
    // The job that finishes hands its slot over (release), so `active` stays as it is.
    await new Promise<void>((resolve) => this.queued.push(resolve));
  }

  private release(): void {
    const next = this.queued.shift();
    if (next) next();
    else this.active -= 1;
  }

  /** A clean drain: no new session, running jobs finish (or are cancelled after the drain timeout), the server is told, the call ends. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.retry);
    const deadline = Date.now() + this.config.drainTimeoutSeconds * 1000;
    while (this.running.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const controller of this.running.values()) controller.abort();
    const call = this.call;
    if (call) {
      const ended = new Promise<void>((resolve) => {
        call.on('status', () => resolve());
        call.on('error', () => resolve());
        setTimeout(resolve, 5_000).unref();
      });
      if (call.writable) call.write({ drain: { reason: 'the relay is shutting down' } });
      call.end();
      await ended;
    }
    clearInterval(this.heartbeat);
    this.client.close();
    await this.reader.close();
    this.log.info('stopped');
  }
}
