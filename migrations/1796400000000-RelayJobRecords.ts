import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A relay job's row is its record, written once the job has ended: jobs wait and answers travel
 * through the relay job transport (Redis), so no row is pending or sent and no answer is stored.
 * Jobs still waiting when this runs are recorded as failed.
 */
export class RelayJobRecords1796400000000 implements MigrationInterface {
  name = 'RelayJobRecords1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "relay_jobs" SET status = 'failed', error = 'The service was upgraded while the job waited', finished_at = clock_timestamp()
        WHERE status IN ('pending', 'sent')`,
    );
    await queryRunner.query(`DROP INDEX "public"."relay_jobs_pending"`);
    await queryRunner.query(`ALTER TABLE "relay_jobs" DROP COLUMN "result_body"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "relay_jobs" ADD "result_body" bytea`);
    await queryRunner.query(`CREATE INDEX "relay_jobs_pending" ON "relay_jobs" ("organization_id", "relay_id") WHERE status = 'pending'`);
  }
}
