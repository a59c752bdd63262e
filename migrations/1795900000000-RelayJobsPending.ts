import { MigrationInterface, QueryRunner } from 'typeorm';

/** The jobs waiting to be sent to a relay, found without reading the relay's whole job history. */
export class RelayJobsPending1795900000000 implements MigrationInterface {
  name = 'RelayJobsPending1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "relay_jobs_pending" ON "relay_jobs" ("organization_id", "relay_id") WHERE status = 'pending'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."relay_jobs_pending"`);
  }
}
