import { MigrationInterface, QueryRunner } from 'typeorm';

export class Relays1795419082068 implements MigrationInterface {
  name = 'Relays1795419082068';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "relays" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "credential_hash" bytea NOT NULL, "bootstrap_token_id" uuid NOT NULL, "version" text, "session_id" uuid, "session_instance" text, "session_started_at" TIMESTAMP WITH TIME ZONE, "last_seen_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_b7b17d7aa824deeffac007d0f12" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "relays_credential_hash" ON "relays" ("credential_hash") ');
    await queryRunner.query('CREATE INDEX "relays_created" ON "relays" ("organization_id", "created_at", "id") ');
    await queryRunner.query(
      'CREATE TABLE "relay_jobs" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "relay_id" uuid NOT NULL, "integration_id" uuid NOT NULL, "capability_id" text NOT NULL, "capability_version" integer NOT NULL, "source" text NOT NULL, "request" jsonb NOT NULL, "status" text NOT NULL, "result_status" integer, "result_body" bytea, "result_truncated" boolean, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_f79c554f3d9b3b4b76a65e9b86f" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "relay_jobs_created" ON "relay_jobs" ("organization_id", "relay_id", "created_at", "id") ');
    await queryRunner.query(
      'CREATE TABLE "relay_session_conflicts" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "relay_id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "last_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "attempts" integer NOT NULL DEFAULT \'1\', "address" text, "cleared_at" TIMESTAMP WITH TIME ZONE, "cleared_by" uuid, CONSTRAINT "PK_58085e459d0837befbc9448ebac" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "relay_session_conflicts_open" ON "relay_session_conflicts" ("organization_id", "relay_id") WHERE cleared_at IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX "relay_session_conflicts_created" ON "relay_session_conflicts" ("organization_id", "relay_id", "occurred_at", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_capabilities" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "relay_id" uuid NOT NULL, "integration_id" uuid NOT NULL, "capability_id" text NOT NULL, "capability_version" integer NOT NULL, CONSTRAINT "PK_2f7a568e2e5ec66565e8f47b18e" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "relay_capabilities_key" ON "relay_capabilities" ("organization_id", "relay_id", "integration_id", "capability_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "relay_bootstrap_tokens" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "token_hash" bytea NOT NULL, "created_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4b4b602a31043ab7f3c07ad481f" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "relay_bootstrap_tokens_token_hash" ON "relay_bootstrap_tokens" ("token_hash") ');
    await queryRunner.query(
      'ALTER TABLE "relays" ADD CONSTRAINT "relays_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "relay_jobs" ADD CONSTRAINT "FK_1c99c6da96b8c16aa8047bcd21e" FOREIGN KEY ("organization_id", "relay_id") REFERENCES "relays"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "relay_session_conflicts" ADD CONSTRAINT "FK_e23a17f6327cea1aa6bbde3db1b" FOREIGN KEY ("organization_id", "relay_id") REFERENCES "relays"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "relay_capabilities" ADD CONSTRAINT "FK_33366a27757f3bff9816c2fbe5b" FOREIGN KEY ("organization_id", "relay_id") REFERENCES "relays"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "relay_bootstrap_tokens" ADD CONSTRAINT "relay_bootstrap_tokens_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "relay_bootstrap_tokens" DROP CONSTRAINT "relay_bootstrap_tokens_organization_fk"');
    await queryRunner.query('ALTER TABLE "relay_capabilities" DROP CONSTRAINT "FK_33366a27757f3bff9816c2fbe5b"');
    await queryRunner.query('ALTER TABLE "relay_session_conflicts" DROP CONSTRAINT "FK_e23a17f6327cea1aa6bbde3db1b"');
    await queryRunner.query('ALTER TABLE "relay_jobs" DROP CONSTRAINT "FK_1c99c6da96b8c16aa8047bcd21e"');
    await queryRunner.query('ALTER TABLE "relays" DROP CONSTRAINT "relays_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."relay_bootstrap_tokens_token_hash"');
    await queryRunner.query('DROP TABLE "relay_bootstrap_tokens"');
    await queryRunner.query('DROP INDEX "public"."relay_capabilities_key"');
    await queryRunner.query('DROP TABLE "relay_capabilities"');
    await queryRunner.query('DROP INDEX "public"."relay_session_conflicts_created"');
    await queryRunner.query('DROP INDEX "public"."relay_session_conflicts_open"');
    await queryRunner.query('DROP TABLE "relay_session_conflicts"');
    await queryRunner.query('DROP INDEX "public"."relay_jobs_created"');
    await queryRunner.query('DROP TABLE "relay_jobs"');
    await queryRunner.query('DROP INDEX "public"."relays_created"');
    await queryRunner.query('DROP INDEX "public"."relays_credential_hash"');
    await queryRunner.query('DROP TABLE "relays"');
  }
}
