import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { JobWiring, loadConfigOrExit } from '@svc/platform';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { WorkerModule } = await import('./worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const jobs = app.get(JobWiring).jobs;
  app.get(Logger).log(`Worker started; processing ${jobs.length} job type(s)${jobs.length ? `: ${jobs.join(', ')}` : ''}`, 'Bootstrap');
}

main().catch((error: unknown) => {
  process.stderr.write(`Worker failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
