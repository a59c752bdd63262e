import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A small service that Prometheus scrapes: `app_build_info{version}` and an HTTP error counter.
 * `release(version, errorsPerSecond)` switches to a new version whose errors begin at once.
 */
export class TestExporter {
  private version = '1.0.0';
  private errors = 0;
  private requests = 0;
  private errorRate = 0;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    this.timer = setInterval(() => {
      this.requests += 20;
      this.errors += this.errorRate / 4;
    }, 250);
  }

  static async start(): Promise<TestExporter> {
    let exporter: TestExporter | undefined;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(exporter!.metrics());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    exporter = new TestExporter(server, (server.address() as AddressInfo).port);
    return exporter;
  }

  release(version: string, errorsPerSecond: number): void {
    this.version = version;
    this.errorRate = errorsPerSecond;
  }

  private metrics(): string {
    return [
      '# TYPE app_build_info gauge',
      `app_build_info{version="${this.version}"} 1`,
      '# TYPE app_http_requests_total counter',
      `app_http_requests_total ${this.requests}`,
      '# TYPE app_http_errors_total counter',
      `app_http_errors_total ${this.errors}`,
      '',
    ].join('\n');
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
