import { Global, Module } from '@nestjs/common';
import { ScopedRepositoryModule } from '@svc/platform';
import { AuditEvent } from './audit-event.entity';
import { AuditEventsController } from './audit-events.controller';
import { AuditService } from './audit.service';

/** The append-only audit trail; other modules record through AuditService in their own transactions. */
@Global()
@Module({
  imports: [ScopedRepositoryModule.forFeature([AuditEvent])],
  controllers: [AuditEventsController],
  providers: [AuditService],
  exports: [AuditService],
})
export class AuditModule {}
