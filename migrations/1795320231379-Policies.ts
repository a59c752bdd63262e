import { MigrationInterface, QueryRunner } from 'typeorm';

export class Policies1795320231379 implements MigrationInterface {
  name = 'Policies1795320231379';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "policies" ("organization_id" text NOT NULL, "session_idle_seconds" integer NOT NULL, "session_absolute_seconds" integer NOT NULL, "api_tokens_allowed" boolean NOT NULL, "oidc_auto_provision_role" text, "investigation_tool_runs" integer NOT NULL, "investigation_reasoner_turns" integer NOT NULL, "investigation_wall_clock_seconds" integer NOT NULL, "investigation_stagnation_turns" integer NOT NULL, "investigation_context_tokens" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_by" uuid, CONSTRAINT "PK_99014cc37299138c942ad2db5b0" PRIMARY KEY ("organization_id"))',
    );
    await queryRunner.query(
      'ALTER TABLE "policies" ADD CONSTRAINT "policies_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "policies" DROP CONSTRAINT "policies_organization_fk"');
    await queryRunner.query('DROP TABLE "policies"');
  }
}
