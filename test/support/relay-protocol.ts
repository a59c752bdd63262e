import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { RegisterResponse, relayClient, RelayMessage, RelayServiceClient, ServerMessage } from '@svc/relays/protocol';
import { until } from './until';

/** A plaintext client of the relay endpoint at 127.0.0.1:`port` (tests speak the protocol directly). */
export function protocolClient(port: number): RelayServiceClient {
  return relayClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

export function registerRelay(client: RelayServiceClient, bootstrapToken: string, version = 'test'): Promise<RegisterResponse> {
  return new Promise((resolve, reject) =>
    client.Register({ bootstrapToken, version }, new grpc.Metadata(), {}, (error, response) => (error ? reject(error) : resolve(response!))),
  );
}

/** One Connect call: what the server sent, and how the call ended (status code), when it has. */
export interface TestSession {
  call: grpc.ClientDuplexStream<RelayMessage, ServerMessage>;
  received: ServerMessage[];
  status?: grpc.status;
  ended: () => Promise<grpc.status>;
  welcomed: () => Promise<ServerMessage['welcome'] | null>;
}

export function connectRelay(client: RelayServiceClient, credential: string, instance = randomUUID()): TestSession {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${credential}`);
  metadata.set('x-relay-instance', instance);
  const call = client.Connect(metadata);
  const session: TestSession = {
    call,
    received: [],
    ended: () => until(() => session.status, 20_000, 'the call to end'),
    welcomed: () => until(() => session.received.find((m) => m.welcome)?.welcome ?? (session.status !== undefined ? null : undefined), 20_000, 'a welcome'),
  };
  let heartbeat: NodeJS.Timeout | undefined;
  call.on('data', (message: ServerMessage) => {
    session.received.push(message);
    // Heartbeats as a relay sends them, so the server keeps the session however slow the test is.
    if (message.welcome) heartbeat = setInterval(() => call.write({ heartbeat: { sentAtMs: Date.now() } }), message.welcome.heartbeatSeconds * 500);
  });
  call.on('error', () => undefined);
  call.on('status', (status: grpc.StatusObject) => {
    clearInterval(heartbeat);
    session.status = status.code;
  });
  return session;
}
