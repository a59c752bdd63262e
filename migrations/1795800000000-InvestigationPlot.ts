import { MigrationInterface, QueryRunner } from 'typeorm';

/** What an investigation's evidence plot shows first (the symptom, its threshold, the conclusion's times), stored with its conclusion. */
export class InvestigationPlot1795800000000 implements MigrationInterface {
  name = 'InvestigationPlot1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "investigations" ADD "plot" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "investigations" DROP COLUMN "plot"`);
  }
}
