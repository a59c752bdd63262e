import { MigrationInterface, QueryRunner } from 'typeorm';

export class ApiTokens1795321471686 implements MigrationInterface {
  name = 'ApiTokens1795321471686';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "api_tokens" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "name" text NOT NULL, "role" text NOT NULL, "token_hash" bytea NOT NULL, "created_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_c2cbd1b1af40ea3595796dce2df" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "api_tokens_created" ON "api_tokens" ("organization_id", "created_at", "id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "api_tokens_token_hash" ON "api_tokens" ("token_hash") ');
    await queryRunner.query(
      'ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."api_tokens_token_hash"');
    await queryRunner.query('DROP INDEX "public"."api_tokens_created"');
    await queryRunner.query('DROP TABLE "api_tokens"');
  }
}
