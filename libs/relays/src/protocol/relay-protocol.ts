import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The .proto file is the documented contract. It sits in libs/relays/proto; the build copies it
 * beside the compiled code (dist/libs/relays/proto), so both resolve it the same way.
 */
export const RELAY_PROTO_PATH = [join(__dirname, '../../proto/relay.proto'), join(__dirname, '../../../../../libs/relays/proto/relay.proto')].find((p) =>
  existsSync(p),
)!;

/** The metadata keys of a Connect call. */
export const RELAY_INSTANCE_METADATA = 'x-relay-instance';
export const RELAY_VERSION_METADATA = 'x-relay-version';

export interface CapabilityMessage {
  integrationId: string;
  capabilityId: string;
  capabilityVersion: number;
}
export interface RegisterRequest {
  bootstrapToken: string;
  version: string;
}
export interface RegisterResponse {
  relayId: string;
  organizationId: string;
  name: string;
  credential: string;
}
export interface QueryParameter {
  name: string;
  value: string;
}
export interface JobMessage {
  jobId: string;
  integrationId: string;
  capabilityId: string;
  capabilityVersion: number;
  path: string;
  query: QueryParameter[];
  timeoutMs: number;
  maxBytes: number;
}
export interface JobResultMessage {
  jobId: string;
  ok: boolean;
  status: number;
  body: Buffer;
  truncated: boolean;
  error: string;
}
export interface RelayMessage {
  /** `jobBatches`: the relay takes JobBatch messages. */
  hello?: { version: string; capabilities: CapabilityMessage[]; jobBatches?: boolean };
  heartbeat?: { sentAtMs: number };
  result?: JobResultMessage;
  results?: { results: JobResultMessage[] };
  drain?: { reason: string };
  kind?: 'hello' | 'heartbeat' | 'result' | 'results' | 'drain';
}
export interface ServerMessage {
  /** `resultBatches`: the server takes ResultBatch messages. */
  welcome?: { sessionId: string; relayId: string; heartbeatSeconds: number; resultBatches?: boolean };
  heartbeat?: { sentAtMs: number };
  job?: JobMessage;
  jobs?: { jobs: JobMessage[] };
  cancel?: { jobId: string };
  drain?: { reason: string };
  kind?: 'welcome' | 'heartbeat' | 'job' | 'jobs' | 'cancel' | 'drain';
}

export interface RelayServiceClient extends grpc.Client {
  Register(
    request: RegisterRequest,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: grpc.requestCallback<RegisterResponse>,
  ): grpc.ClientUnaryCall;
  Connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<RelayMessage, ServerMessage>;
}

interface RelayPackage {
  svc: { relay: { v1: { Relay: grpc.ServiceClientConstructor } } };
}

let loaded: RelayPackage | undefined;

function relayPackage(): RelayPackage {
  loaded ??= grpc.loadPackageDefinition(
    protoLoader.loadSync(RELAY_PROTO_PATH, { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true }),
  ) as unknown as RelayPackage;
  return loaded;
}

/** The Relay service definition, for the server. */
export function relayServiceDefinition(): grpc.ServiceDefinition {
  return relayPackage().svc.relay.v1.Relay.service;
}

/** A client of the Relay service at `address` (host:port). */
export function relayClient(address: string, credentials: grpc.ChannelCredentials, options: grpc.ChannelOptions = {}): RelayServiceClient {
  const Client = relayPackage().svc.relay.v1.Relay;
  return new Client(address, credentials, options) as unknown as RelayServiceClient;
}
