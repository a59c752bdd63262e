import { MigrationInterface, QueryRunner } from 'typeorm';

export class Integrations1795321911753 implements MigrationInterface {
  name = 'Integrations1795321911753';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "integrations" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "type" text NOT NULL, "name" text NOT NULL, "enabled" boolean NOT NULL, "config" jsonb NOT NULL, "credentials_sealed" bytea, "webhook_secret_hash" bytea, "webhook_secret_rotated_at" TIMESTAMP WITH TIME ZONE, "last_verified_at" TIMESTAMP WITH TIME ZONE, "last_verify_outcome" text, "last_verify_detail" text, "created_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_e45548543580b3aea3455acf13a" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "integrations_webhook_secret" ON "integrations" ("webhook_secret_hash") WHERE webhook_secret_hash IS NOT NULL',
    );
    await queryRunner.query('CREATE INDEX "integrations_created" ON "integrations" ("organization_id", "created_at", "id") ');
    await queryRunner.query(
      'ALTER TABLE "integrations" ADD CONSTRAINT "integrations_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "integrations" DROP CONSTRAINT "integrations_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."integrations_created"');
    await queryRunner.query('DROP INDEX "public"."integrations_webhook_secret"');
    await queryRunner.query('DROP TABLE "integrations"');
  }
}
