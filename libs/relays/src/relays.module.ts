import { Module } from '@nestjs/common';
import { ScopedRepositoryModule } from '@svc/platform';
import { RelayBootstrapToken } from './relay-bootstrap-token.entity';
import { RelayCapability } from './relay-capability.entity';
import { RelayJob } from './relay-job.entity';
import { RelaySessionConflict } from './relay-session-conflict.entity';
import { Relay } from './relay.entity';
import { RelaysController } from './relays.controller';
import { RelaysRepository } from './relays.repository';
import { RelaysService } from './relays.service';
import { RelayJobsService } from './relay-jobs.service';
import { RelayTransport } from './relay-transport';

export const RELAYS_ENTITIES = [Relay, RelayBootstrapToken, RelayCapability, RelaySessionConflict, RelayJob];

@Module({
  imports: [ScopedRepositoryModule.forFeature([Relay, RelayBootstrapToken, RelayCapability, RelaySessionConflict, RelayJob])],
  controllers: [RelaysController],
  providers: [RelaysService, RelaysRepository, RelayJobsService, RelayTransport],
  exports: [RelaysService, RelayJobsService, RelayTransport],
})
export class RelaysModule {}
