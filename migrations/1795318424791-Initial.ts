import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795318424791 implements MigrationInterface {
  name = 'Initial1795318424791';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "platform_settings" ("key" text NOT NULL, "value" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5d9031e30fac3ec3ec8b9602e17" PRIMARY KEY ("key"))',
    );
    await queryRunner.query(
      'CREATE TABLE "outbox_messages" ("id" uuid NOT NULL, "organization_id" text NOT NULL, "queue" text NOT NULL, "job_name" text NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "dispatched_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT \'0\', "last_error" text, CONSTRAINT "PK_0171348f527c64b137e4d4f5b66" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "outbox_messages_pending" ON "outbox_messages" ("id") WHERE dispatched_at IS NULL');
    await queryRunner.query(
      'CREATE TABLE "organizations" ("id" text NOT NULL, "display_name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "memberships" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "memberships_role" CHECK (role IN (\'viewer\', \'editor\', \'admin\')), CONSTRAINT "PK_98cbb90f81d36013e7cc41ccb08" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "memberships_user" ON "memberships" ("user_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "memberships_organization_user" ON "memberships" ("organization_id", "user_id") ');
    await queryRunner.query(
      'CREATE TABLE "users" ("id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "password_hash" text, "disabled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "users_email" ON "users" ("email") ');
    await queryRunner.query(
      'CREATE TABLE "sessions" ("id" uuid NOT NULL, "token_hash" bytea NOT NULL, "user_id" uuid NOT NULL, "active_organization_id" text, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "idle_timeout_seconds" integer NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "revoked_reason" text, "user_agent" text, "address" text, CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "sessions_user" ON "sessions" ("user_id", "issued_at") ');
    await queryRunner.query('CREATE UNIQUE INDEX "sessions_token_hash" ON "sessions" ("token_hash") ');
    await queryRunner.query(
      'ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "sessions" ADD CONSTRAINT "sessions_active_organization_fk" FOREIGN KEY ("active_organization_id") REFERENCES "organizations"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sessions" DROP CONSTRAINT "sessions_active_organization_fk"');
    await queryRunner.query('ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_fk"');
    await queryRunner.query('ALTER TABLE "memberships" DROP CONSTRAINT "memberships_user_fk"');
    await queryRunner.query('ALTER TABLE "memberships" DROP CONSTRAINT "memberships_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."sessions_token_hash"');
    await queryRunner.query('DROP INDEX "public"."sessions_user"');
    await queryRunner.query('DROP TABLE "sessions"');
    await queryRunner.query('DROP INDEX "public"."users_email"');
    await queryRunner.query('DROP TABLE "users"');
    await queryRunner.query('DROP INDEX "public"."memberships_organization_user"');
    await queryRunner.query('DROP INDEX "public"."memberships_user"');
    await queryRunner.query('DROP TABLE "memberships"');
    await queryRunner.query('DROP TABLE "organizations"');
    await queryRunner.query('DROP INDEX "public"."outbox_messages_pending"');
    await queryRunner.query('DROP TABLE "outbox_messages"');
    await queryRunner.query('DROP TABLE "platform_settings"');
  }
}
