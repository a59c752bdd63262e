import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { createRootLogger, ROOT_LOGGER } from './root-logger';

/**
 * Nest's logger backed by pino. The access-log middleware is installed by configureHttpApp (ahead
 * of body parsing, so even refused bodies are logged); this module only binds each request's
 * child logger to the code that runs for it.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(processName: string, config: AppConfig): DynamicModule {
    const rootLogger = createRootLogger(config.LOG_LEVEL, processName);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: rootLogger }, useExisting: true })],
      providers: [{ provide: ROOT_LOGGER, useValue: rootLogger }],
      exports: [ROOT_LOGGER, LoggerModule],
    };
  }
}

export type RootLogger = Logger;
export { AppConfig };
