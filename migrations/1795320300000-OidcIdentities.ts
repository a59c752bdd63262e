import { MigrationInterface, QueryRunner } from 'typeorm';

export class OidcIdentities1795320300000 implements MigrationInterface {
  name = 'OidcIdentities1795320300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "oidc_identities" ("id" uuid NOT NULL, "issuer" text NOT NULL, "subject" text NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_5f2ee4d63e1d0ca3bc5c924dcf4" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "oidc_identities_issuer_subject" ON "oidc_identities" ("issuer", "subject") ');
    await queryRunner.query(
      'ALTER TABLE "oidc_identities" ADD CONSTRAINT "oidc_identities_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "oidc_identities" DROP CONSTRAINT "oidc_identities_user_fk"');
    await queryRunner.query('DROP INDEX "public"."oidc_identities_issuer_subject"');
    await queryRunner.query('DROP TABLE "oidc_identities"');
  }
}
