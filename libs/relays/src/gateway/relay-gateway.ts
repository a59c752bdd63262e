import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { AppConfig, NotificationChannel } from '@svc/platform';
import {
  RELAY_INSTANCE_METADATA,
  RELAY_VERSION_METADATA,
  RegisterRequest,
  RegisterResponse,
  RelayMessage,
  relayServiceDefinition,
  ServerMessage,
} from '../protocol/relay-protocol';
import { RELAY_CHANNEL } from '../relays.repository';
import { RelaysService } from '../relays.service';
import { RelayTransport, RelayWake } from '../relay-transport';
import { LiveSession } from './live-session';
import { RegisterRateLimit } from './register-rate-limit';

/** How long a shutdown waits for sessions to end and calls to finish before closing them. */
const SHUTDOWN_GRACE_MS = 5_000;

function metadataValue(metadata: grpc.Metadata, key: string, max = 512): string {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** The address part of a gRPC peer (`1.2.3.4:5678`, `[::1]:5678`, `ipv4:…`). */
export function peerAddress(peer: string): string | null {
  const bare = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\]:\d+$/.exec(bare);
  if (bracketed) return bracketed[1];
  const plain = /^([^:]+):\d+$/.exec(bare);
  return plain ? plain[1] : bare || null;
}

function refuse(call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>, code: grpc.status, details: string): void {
  call.emit('error', { code, details });
}

/**
 * The relay endpoint of this API process: the Relay gRPC service on SVC_RELAY_GRPC_PORT (TLS from
 * the certificate and key settings; plaintext only when explicitly allowed). It registers relays
 * and holds the sessions of the relays connected to this process; a session ended elsewhere (an
 * Admin's clear-conflict) reaches it through PostgreSQL NOTIFY, new jobs and cancels through the
 * relay job channel (RelayTransport).
 */
@Injectable()
export class RelayGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('RelayGateway');
  private server?: grpc.Server;
  private channel?: NotificationChannel;
  private registerLimit?: RegisterRateLimit;
  private draining = false;
  /** Live sessions held by this process, by relay id. */
  readonly sessions = new Map<string, LiveSession>();
  /** The port it listens on, once bound. */
  port?: number;

  constructor(
    private readonly relays: RelaysService,
    private readonly transport: RelayTransport,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.SVC_RELAY_GRPC_PORT === undefined) return;
    const server = new grpc.Server({
      'grpc.keepalive_time_ms': 30_000,
      'grpc.keepalive_timeout_ms': 10_000,
      'grpc.keepalive_permit_without_calls': 1,
      'grpc.max_receive_message_length': 32 * 1024 * 1024,
    });
    server.addService(relayServiceDefinition(), {
      Register: (call: grpc.ServerUnaryCall<RegisterRequest, RegisterResponse>, callback: grpc.sendUnaryData<RegisterResponse>) =>
        void this.register(call, callback),
      Connect: (call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>) => void this.connect(call),
    });
    const { SVC_RELAY_TLS_CERT_FILE: certFile, SVC_RELAY_TLS_KEY_FILE: keyFile } = this.config;
    const credentials =
      certFile && keyFile
        ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(certFile), private_key: readFileSync(keyFile) }], false)
        : grpc.ServerCredentials.createInsecure();
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`0.0.0.0:${this.config.SVC_RELAY_GRPC_PORT}`, credentials, (error, port) => (error ? reject(error) : resolve(port))),
    );
    this.server = server;
    this.registerLimit = new RegisterRateLimit(this.config);
    this.channel = new NotificationChannel(
      this.config.DATABASE_URL,
      RELAY_CHANNEL,
      { notified: (payload) => this.notified(payload), listeningChanged: () => this.recheckAll() },
      'svc-relay-listen',
    );
    this.channel.start();
    this.transport.onWake(
      (wake) => this.woken(wake),
      () => this.recheckAll(),
    );
    this.logger.log(`Relay endpoint (gRPC${certFile && keyFile ? ' over TLS' : ', plaintext'}) listening on port ${this.port}`);
  }

  /** Tells every relay of this process to reconnect elsewhere, ends their sessions, then stops the endpoint. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    this.draining = true;
    await Promise.all([...this.sessions.values()].map((s) => s.end('the server is shutting down')));
    const server = this.server;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.channel?.stop();
    this.registerLimit?.close();
  }

  private async register(call: grpc.ServerUnaryCall<RegisterRequest, RegisterResponse>, callback: grpc.sendUnaryData<RegisterResponse>): Promise<void> {
    try {
      if (this.draining) return callback({ code: grpc.status.UNAVAILABLE, details: 'The server is shutting down' });
      const address = peerAddress(call.getPeer());
      const waitSeconds = await this.registerLimit!.consume(address);
      if (waitSeconds !== null) {
        this.logger.warn(`Registration refused: too many Register calls from ${address ?? 'unknown'}`);
        return callback({
          code: grpc.status.RESOURCE_EXHAUSTED,
          details: `Too many registrations from this address (at most ${this.config.SVC_RELAY_REGISTER_PER_MINUTE} a minute); retry in ${waitSeconds} s`,
        });
      }
      const registered = await this.relays.register(String(call.request.bootstrapToken ?? ''), String(call.request.version ?? '').slice(0, 128), address);
      if (!registered) return callback({ code: grpc.status.UNAUTHENTICATED, details: 'The bootstrap token is unknown, used or expired' });
      this.logger.log(`Relay ${registered.relayId} registered (${registered.organizationId})`);
      callback(null, registered);
    } catch (error) {
      this.logger.error(`Registration failed: ${(error as Error).message}`);
      callback({ code: grpc.status.UNAVAILABLE, details: 'Registration failed; try again' });
    }
  }

  private async connect(call: grpc.ServerDuplexStream<RelayMessage, ServerMessage>): Promise<void> {
    try {
      if (this.draining) return refuse(call, grpc.status.UNAVAILABLE, 'The server is shutting down; connect again');
      const credential = /^Bearer (\S+)$/.exec(metadataValue(call.metadata, 'authorization'))?.[1] ?? '';
      const instance = metadataValue(call.metadata, RELAY_INSTANCE_METADATA, 128);
      const version = metadataValue(call.metadata, RELAY_VERSION_METADATA, 128) || null;
      const relay = await this.relays.authenticate(credential);
      if (!relay) return refuse(call, grpc.status.UNAUTHENTICATED, 'The registration credential is not valid');
      if (!instance) return refuse(call, grpc.status.INVALID_ARGUMENT, `The ${RELAY_INSTANCE_METADATA} metadata is required`);
      const address = peerAddress(call.getPeer());
      const grant = await this.relays.openSession(relay, instance, version, address);
      if (!grant.granted) {
        this.logger.warn(`Relay ${relay.id}: a second connection was refused (session conflict) from ${address ?? 'unknown'}`);
        return refuse(call, grpc.status.ALREADY_EXISTS, 'Another connection holds this registration; recorded as a session conflict until an Admin clears it');
      }
      // The same relay process reconnecting to this API process: its old session here is over.
      await this.sessions.get(relay.id)?.end('replaced by a new connection');
      const session = new LiveSession(call, relay, grant.sessionId, this.relays, (s) => {
        if (this.sessions.get(relay.id) === s) this.sessions.delete(relay.id);
      });
      this.sessions.set(relay.id, session);
      session.start();
      this.logger.log(`Relay ${relay.id}: session ${grant.sessionId} opened`);
    } catch (error) {
      this.logger.error(`Connect failed: ${(error as Error).message}`);
      refuse(call, grpc.status.UNAVAILABLE, 'The session could not be opened; try again');
    }
  }

  /** A session's registration changed (PostgreSQL NOTIFY): the session checks it is still its registration's. */
  private notified(payload: string): void {
    let message: { kind?: string; organizationId?: string; relayId?: string };
    try {
      message = JSON.parse(payload) as typeof message;
    } catch {
      return;
    }
    const session = message.relayId ? this.sessions.get(message.relayId) : undefined;
    if (session && message.kind === 'session' && session.relay.organizationId === message.organizationId) void session.check();
  }

  /** A relay has new jobs, or one of its jobs was given up (the relay job channel). */
  private woken(wake: RelayWake): void {
    const session = this.sessions.get(wake.relayId);
    if (!session || session.relay.organizationId !== wake.organizationId) return;
    if (wake.kind === 'job') void session.sendPending();
    else if (wake.kind === 'cancel') session.cancel(wake.jobId);
  }

  /** Notifications may have been missed: every session checks it is still its registration's. */
  private recheckAll(): void {
    for (const session of this.sessions.values()) {
      void session.check();
      void session.sendPending();
    }
  }
}
