import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Provides the validated AppConfig; a bad setting fails the module's construction, hence the boot. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => loadConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
