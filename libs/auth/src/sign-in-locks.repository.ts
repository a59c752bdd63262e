import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

const BOOTSTRAP_LOCK = 7_402_114_002;

/**
 * Transaction-scoped advisory locks that serialize sign-in work across API processes. Deployment
 * wide by nature (users are not an Organization's rows): they hold no Organization and read none.
 */
@Injectable()
export class SignInLocksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Serializes concurrent bootstraps of the deployment until the caller's transaction ends. */
  async lockBootstrapDeploymentWide(manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
  }

  /** Serializes concurrent first sign-ins of one identity (or one email address) until the caller's transaction ends. */
  async lockIdentityDeploymentWide(key: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  }
}
