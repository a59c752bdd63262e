import { Module } from '@nestjs/common';
import { RelaysModule } from '../relays.module';
import { RelayGateway } from './relay-gateway';

/** The relay endpoint (gRPC): imported by the API only. */
@Module({
  imports: [RelaysModule],
  providers: [RelayGateway],
  exports: [RelayGateway],
})
export class RelayGatewayModule {}
