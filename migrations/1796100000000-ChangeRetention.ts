import { MigrationInterface, QueryRunner } from 'typeorm';

/** How long an Organization keeps its changes (Policy `retention.changeDays`). */
export class ChangeRetention1796100000000 implements MigrationInterface {
  name = 'ChangeRetention1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "policies" ADD "change_retention_days" integer NOT NULL DEFAULT '90'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "policies" DROP COLUMN "change_retention_days"`);
  }
}
