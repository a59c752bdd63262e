import { MigrationInterface, QueryRunner } from 'typeorm';

export class Investigations1795326288817 implements MigrationInterface {
  name = 'Investigations1795326288817';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "investigations" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "incident_id" uuid NOT NULL, "status" text NOT NULL, "subject" text NOT NULL, "window_from" TIMESTAMP WITH TIME ZONE NOT NULL, "window_until" TIMESTAMP WITH TIME ZONE NOT NULL, "opened_by" text NOT NULL, "reasoner" text, "impact" jsonb, "findings" jsonb NOT NULL DEFAULT \'[]\', "hypotheses" jsonb NOT NULL DEFAULT \'[]\', "actions" jsonb NOT NULL DEFAULT \'[]\', "limitations" jsonb NOT NULL DEFAULT \'[]\', "conclusion_status" text, "summary" text, "stopped_by" text, "error" text, "input_tokens" integer NOT NULL DEFAULT \'0\', "output_tokens" integer NOT NULL DEFAULT \'0\', "last_sequence" integer NOT NULL DEFAULT \'0\', "claim" uuid, "attempts" integer NOT NULL DEFAULT \'0\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "started_at" TIMESTAMP WITH TIME ZONE, "concluded_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_84a52bbe86ac61acf200f7684ae" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "investigations_incident" ON "investigations" ("organization_id", "incident_id", "created_at") ');
    await queryRunner.query('CREATE INDEX "investigations_created" ON "investigations" ("organization_id", "created_at", "id") ');
    await queryRunner.query(
      'CREATE TABLE "tool_runs" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "investigation_id" uuid NOT NULL, "ordinal" integer NOT NULL, "tool" text NOT NULL, "integration_id" uuid, "purpose" text NOT NULL, "hypothesis_id" text, "arguments" jsonb NOT NULL, "window_from" TIMESTAMP WITH TIME ZONE, "window_until" TIMESTAMP WITH TIME ZONE, "outcome" text NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "summary" text, "sources" jsonb NOT NULL DEFAULT \'[]\', "truncated" boolean NOT NULL DEFAULT false, "error" text, "output" jsonb, CONSTRAINT "PK_6acc682d954ed0a6d56810fd2bf" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "tool_runs_ordinal" ON "tool_runs" ("organization_id", "investigation_id", "ordinal") ');
    await queryRunner.query(
      'CREATE TABLE "investigation_sources" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "investigation_id" uuid NOT NULL, "integration_id" uuid NOT NULL, "rank" integer NOT NULL, "reason" text NOT NULL, "selected_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_191eebbcea05489de5e1f3890df" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "investigation_sources_rank" ON "investigation_sources" ("organization_id", "investigation_id", "integration_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "investigation_activity" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "investigation_id" uuid NOT NULL, "sequence" integer NOT NULL, "type" text NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "data" jsonb NOT NULL, CONSTRAINT "PK_576e898694e151b72adcdbd37d7" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "investigation_activity_sequence" ON "investigation_activity" ("organization_id", "investigation_id", "sequence") ',
    );
    await queryRunner.query(
      'ALTER TABLE "investigations" ADD CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "tool_runs" ADD CONSTRAINT "FK_3d68dbb942ed0a5518de5baaaab" FOREIGN KEY ("organization_id", "investigation_id") REFERENCES "investigations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "investigation_sources" ADD CONSTRAINT "FK_16b9f22216134a1f90c95c0879d" FOREIGN KEY ("organization_id", "investigation_id") REFERENCES "investigations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "investigation_activity" ADD CONSTRAINT "FK_a2cffa18008245a70b68c39d9d8" FOREIGN KEY ("organization_id", "investigation_id") REFERENCES "investigations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "investigation_activity" DROP CONSTRAINT "FK_a2cffa18008245a70b68c39d9d8"');
    await queryRunner.query('ALTER TABLE "investigation_sources" DROP CONSTRAINT "FK_16b9f22216134a1f90c95c0879d"');
    await queryRunner.query('ALTER TABLE "tool_runs" DROP CONSTRAINT "FK_3d68dbb942ed0a5518de5baaaab"');
    await queryRunner.query('ALTER TABLE "investigations" DROP CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6"');
    await queryRunner.query('DROP INDEX "public"."investigation_activity_sequence"');
    await queryRunner.query('DROP TABLE "investigation_activity"');
    await queryRunner.query('DROP INDEX "public"."investigation_sources_rank"');
    await queryRunner.query('DROP TABLE "investigation_sources"');
    await queryRunner.query('DROP INDEX "public"."tool_runs_ordinal"');
    await queryRunner.query('DROP TABLE "tool_runs"');
    await queryRunner.query('DROP INDEX "public"."investigations_created"');
    await queryRunner.query('DROP INDEX "public"."investigations_incident"');
    await queryRunner.query('DROP TABLE "investigations"');
  }
}
