import { MigrationInterface, QueryRunner } from 'typeorm';

/** The calls between an Organization's services that investigations saw: an incident's changes include its dependencies'. */
export class ServiceCalls1796300000000 implements MigrationInterface {
  name = 'ServiceCalls1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "service_calls" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "caller" text NOT NULL, "caller_key" text NOT NULL, "callee" text NOT NULL, "callee_key" text NOT NULL, "integration_id" uuid NOT NULL, "investigation_id" uuid NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_service_calls" PRIMARY KEY ("organization_id", "id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "service_calls_pair" ON "service_calls" ("organization_id", "caller_key", "callee_key") `);
    await queryRunner.query(
      `ALTER TABLE "service_calls" ADD CONSTRAINT "service_calls_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "service_calls"`);
  }
}
