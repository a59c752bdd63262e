import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../observability/metrics';
import { OutboundClient } from './outbound-client';

/**
 * Provides the process's one OutboundClient, built from the validated configuration; where the
 * process has metrics (the API), it counts the bytes it reads in them.
 */
@Global()
@Module({
  providers: [
    {
      provide: OutboundClient,
      useFactory: (config: AppConfig, metrics?: Metrics) => new OutboundClient(config, { bytesRead: metrics?.outboundResponseBytes }),
      inject: [AppConfig, { token: Metrics, optional: true }],
    },
  ],
  exports: [OutboundClient],
})
export class OutboundModule implements OnApplicationShutdown {
  constructor(private readonly client: OutboundClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}
