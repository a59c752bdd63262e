import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Changes reported by deploy and configuration tools (one row per change, unique per sender id
 * within its integration), and the sealed webhook secret of integrations whose senders sign with it.
 */
export class ChangeEvents1796000000000 implements MigrationInterface {
  name = 'ChangeEvents1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "change_events" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "integration_id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "source" text NOT NULL, "external_id" text NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "service" text, "service_key" text, "environment" text, "kind" text NOT NULL, "summary" text NOT NULL, "author" text, "version_before" text, "version_after" text, "links" jsonb NOT NULL, "details" jsonb NOT NULL, CONSTRAINT "PK_9479ad99387b9616fc08fe124a2" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "change_events_service" ON "change_events" ("organization_id", "service_key", "occurred_at") ');
    await queryRunner.query('CREATE INDEX "change_events_occurred" ON "change_events" ("organization_id", "occurred_at", "id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "change_events_sender_id" ON "change_events" ("organization_id", "integration_id", "external_id") ');
    await queryRunner.query('ALTER TABLE "integrations" ADD "webhook_secret_sealed" bytea');
    await queryRunner.query(
      'ALTER TABLE "change_events" ADD CONSTRAINT "change_events_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "change_events" DROP CONSTRAINT "change_events_organization_fk"');
    await queryRunner.query('ALTER TABLE "integrations" DROP COLUMN "webhook_secret_sealed"');
    await queryRunner.query('DROP INDEX "public"."change_events_sender_id"');
    await queryRunner.query('DROP INDEX "public"."change_events_occurred"');
    await queryRunner.query('DROP INDEX "public"."change_events_service"');
    await queryRunner.query('DROP TABLE "change_events"');
  }
}
