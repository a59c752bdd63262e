import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { join } from 'node:path';
import { Logger } from 'nestjs-pino';
import { configureHttpApp, loadConfigOrExit, serveConsole } from '@svc/platform';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const { AppModule } = await import('./app.module');
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  configureHttpApp(app);
  // The web console, built beside the API into dist/console by `npm run build`.
  serveConsole(app, join(__dirname, '../../../console'));
  await app.listen(config.PORT);
  app.get(Logger).log(`API listening on port ${config.PORT} (public URL ${config.SVC_PUBLIC_URL})`, 'Bootstrap');
}

main().catch((error: unknown) => {
  process.stderr.write(`API failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
