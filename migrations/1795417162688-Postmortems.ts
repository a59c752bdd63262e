import { MigrationInterface, QueryRunner } from 'typeorm';

export class Postmortems1795417162688 implements MigrationInterface {
  name = 'Postmortems1795417162688';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "postmortems" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "incident_id" uuid NOT NULL, "status" text NOT NULL, "revision" integer NOT NULL, "document" jsonb NOT NULL, "corrected_fields" jsonb NOT NULL DEFAULT \'[]\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "reviewed_at" TIMESTAMP WITH TIME ZONE, "reviewed_by_user_id" uuid, CONSTRAINT "PK_4e31b0330a5c670b38a27684646" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "postmortems_incident" ON "postmortems" ("organization_id", "incident_id") ');
    await queryRunner.query(
      'CREATE TABLE "postmortem_revisions" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "postmortem_id" uuid NOT NULL, "revision" integer NOT NULL, "kind" text NOT NULL, "document" jsonb NOT NULL, "corrected_fields" jsonb NOT NULL DEFAULT \'[]\', "created_by" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_a8f999dae94323a27435eecc9b7" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "postmortem_revisions_revision" ON "postmortem_revisions" ("organization_id", "postmortem_id", "revision") ');
    await queryRunner.query(
      'ALTER TABLE "postmortems" ADD CONSTRAINT "FK_36b21cf8b891833230bb8e9f34d" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "postmortem_revisions" ADD CONSTRAINT "FK_1e67d4ed3178c3fc0c3fe3f793f" FOREIGN KEY ("organization_id", "postmortem_id") REFERENCES "postmortems"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "postmortem_revisions" DROP CONSTRAINT "FK_1e67d4ed3178c3fc0c3fe3f793f"');
    await queryRunner.query('ALTER TABLE "postmortems" DROP CONSTRAINT "FK_36b21cf8b891833230bb8e9f34d"');
    await queryRunner.query('DROP INDEX "public"."postmortem_revisions_revision"');
    await queryRunner.query('DROP TABLE "postmortem_revisions"');
    await queryRunner.query('DROP INDEX "public"."postmortems_incident"');
    await queryRunner.query('DROP TABLE "postmortems"');
  }
}
