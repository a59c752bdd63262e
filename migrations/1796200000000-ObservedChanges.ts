import { MigrationInterface, QueryRunner } from 'typeorm';

/** Rollouts an investigation saw in the metrics are recorded as changes: no delivery brought them, an investigation did. */
export class ObservedChanges1796200000000 implements MigrationInterface {
  name = 'ObservedChanges1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "change_events" ALTER COLUMN "delivery_id" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "change_events" ADD "investigation_id" uuid`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "change_events" WHERE "delivery_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "change_events" DROP COLUMN "investigation_id"`);
    await queryRunner.query(`ALTER TABLE "change_events" ALTER COLUMN "delivery_id" SET NOT NULL`);
  }
}
