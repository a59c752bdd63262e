import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './ports';
import { until } from './until';

/** A private redis-server on its own port, which a test may kill and start again. */
export class RedisServer {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.startProcess();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async startProcess(): Promise<void> {
    this.process = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    await until(
      async () => {
        try {
          await client.connect().catch(() => undefined);
          return (await client.ping()) === 'PONG';
        } catch {
          return false; // starting
        }
      },
      10_000,
      'redis-server to start',
    );
    client.disconnect();
  }

  /** SIGKILL: no shutdown, no save; whatever Redis held is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
