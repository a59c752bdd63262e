import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { OutboundClient } from './outbound-client';

/** Provides the process's one OutboundClient, built from the validated configuration. */
@Global()
@Module({
  providers: [{ provide: OutboundClient, useFactory: (config: AppConfig) => new OutboundClient(config), inject: [AppConfig] }],
  exports: [OutboundClient],
})
export class OutboundModule implements OnApplicationShutdown {
  constructor(private readonly client: OutboundClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
