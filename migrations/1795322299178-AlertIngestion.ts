import { MigrationInterface, QueryRunner } from 'typeorm';

export class AlertIngestion1795322299178 implements MigrationInterface {
  name = 'AlertIngestion1795322299178';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "incidents" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "integration_id" uuid NOT NULL, "group_key" text NOT NULL, "status" text NOT NULL, "title" text NOT NULL, "labels" jsonb NOT NULL, "opened_at" TIMESTAMP WITH TIME ZONE NOT NULL, "resolved_at" TIMESTAMP WITH TIME ZONE, "merged_into" uuid, "alert_count" integer NOT NULL DEFAULT \'0\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_f980cb1925bf65e37666327299d" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "incidents_opened" ON "incidents" ("organization_id", "opened_at", "id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "incidents_one_open_per_group" ON "incidents" ("organization_id", "integration_id", "group_key") WHERE status = \'open\'',
    );
    await queryRunner.query(
      'CREATE TABLE "alert_events" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "incident_id" uuid NOT NULL, "integration_id" uuid NOT NULL, "delivery_id" uuid NOT NULL, "fingerprint" text NOT NULL, "status" text NOT NULL, "labels" jsonb NOT NULL, "annotations" jsonb NOT NULL, "starts_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP WITH TIME ZONE, "phase_at" TIMESTAMP WITH TIME ZONE NOT NULL, "generator_url" text, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_6029c4dc6119e603d2a9e01c057" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "alert_events_incident" ON "alert_events" ("organization_id", "incident_id", "received_at", "id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "alert_events_phase" ON "alert_events" ("organization_id", "integration_id", "fingerprint", "status", "phase_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_deliveries" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "integration_id" uuid NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "status_code" integer NOT NULL, "accepted" integer NOT NULL DEFAULT \'0\', "duplicates" integer NOT NULL DEFAULT \'0\', "incident_ids" jsonb NOT NULL, "error" text, "headers" jsonb NOT NULL, "body" text, "replay_of" uuid, CONSTRAINT "PK_24cb0452b7280b0c67c232ba3bf" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "webhook_deliveries_received" ON "webhook_deliveries" ("organization_id", "received_at", "id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "integrations_id" ON "integrations" ("id") ');
    await queryRunner.query(
      'ALTER TABLE "incidents" ADD CONSTRAINT "incidents_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "alert_events" ADD CONSTRAINT "FK_a8b353cca87d67b0388fb70c442" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_organization_fk"');
    await queryRunner.query('ALTER TABLE "alert_events" DROP CONSTRAINT "FK_a8b353cca87d67b0388fb70c442"');
    await queryRunner.query('ALTER TABLE "incidents" DROP CONSTRAINT "incidents_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."integrations_id"');
    await queryRunner.query('DROP INDEX "public"."webhook_deliveries_received"');
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP INDEX "public"."alert_events_phase"');
    await queryRunner.query('DROP INDEX "public"."alert_events_incident"');
    await queryRunner.query('DROP TABLE "alert_events"');
    await queryRunner.query('DROP INDEX "public"."incidents_one_open_per_group"');
    await queryRunner.query('DROP INDEX "public"."incidents_opened"');
    await queryRunner.query('DROP TABLE "incidents"');
  }
}
