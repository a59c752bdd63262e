import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { OrganizationsModule, PolicyService } from '@svc/organizations';
import { PeriodicSweep, Timestamp } from '@svc/platform';
import { ChangesModule } from './changes.module';
import { ChangesRepository } from './changes.repository';
import { ServiceCallsRepository } from './service-calls.repository';

/** How often the worker deletes the changes past their Organization's retention. */
const SWEEP_EVERY_MS = 60 * 60_000;
/** Changes deleted by one statement: short transactions, however much is due. */
const DELETE_BATCH = 1000;
/** The shortest retention a Policy allows: no change younger than this is ever due. */
const MIN_RETENTION_DAYS = 1;

/**
 * Deletes changes older than their Organization's Policy keeps them (`retention.changeDays`,
 * default 90), in batches of DELETE_BATCH, and forgets the calls between services no
 * investigation saw for as long, when the worker starts and every hour. Several workers may
 * sweep at once: the deletes are idempotent, and each Organization's loop ends when a batch finds
 * less than a full batch to delete.
 */
@Injectable()
export class ChangeRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChangeRetention.name);
  private readonly every = new PeriodicSweep({
    everyMs: SWEEP_EVERY_MS,
    sweep: () => this.sweep(),
    logger: this.logger,
    failure: 'Deleting expired changes failed; the next sweep tries again',
  });

  constructor(
    private readonly repository: ChangesRepository,
    private readonly calls: ServiceCallsRepository,
    private readonly policies: PolicyService,
  ) {}

  onApplicationBootstrap(): void {
    this.every.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.every.stop();
  }

  /** One sweep over every Organization with changes due; how many it deleted. */
  async sweep(): Promise<number> {
    const now = Timestamp.now();
    const due = now.plusSeconds(-MIN_RETENTION_DAYS * 86_400);
    const organizations = [
      ...new Set([
        ...(await this.repository.organizationsWithChangesBeforeAcrossOrganizations(due)),
        ...(await this.calls.organizationsWithCallsSeenBeforeAcrossOrganizations(due)),
      ]),
    ];
    let deleted = 0;
    for (const organizationId of organizations) {
      const days = (await this.policies.get(organizationId)).retention?.changeDays ?? 90;
      const before = now.plusSeconds(-days * 86_400);
      // Calls between services not seen for as long are forgotten with the changes they tied to incidents.
      await this.calls.deleteSeenBefore(organizationId, before);
      for (;;) {
        const count = await this.repository.deleteBefore(organizationId, before, DELETE_BATCH);
        deleted += count;
        if (count < DELETE_BATCH) break;
      }
    }
    if (deleted > 0) this.logger.log({ deleted, organizations: organizations.length }, 'Deleted changes past their retention');
    return deleted;
  }
}

/** The worker's side of changes: their retention. */
@Module({
  imports: [ChangesModule, OrganizationsModule],
  providers: [ChangeRetention],
})
export class ChangesWorkerModule {}
