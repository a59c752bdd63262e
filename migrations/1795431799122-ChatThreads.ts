import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChatThreads1795431799122 implements MigrationInterface {
  name = 'ChatThreads1795431799122';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "chat_threads" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "integration_id" uuid NOT NULL, "channel" text NOT NULL, "thread_ts" text NOT NULL, "conversation_id" uuid NOT NULL, CONSTRAINT "PK_5b9633f18f719073e76e979b505" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "chat_threads_conversation" ON "chat_threads" ("organization_id", "conversation_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "chat_threads_thread" ON "chat_threads" ("organization_id", "integration_id", "channel", "thread_ts") ');
    await queryRunner.query(
      'CREATE TABLE "chat_replies" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "message_sequence" integer NOT NULL, "status" text NOT NULL, "failure" text, "error" text, "attempts" integer NOT NULL DEFAULT \'0\', "posted_ts" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_df6a82350eaada65b4290baf4c7" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "chat_replies_message" ON "chat_replies" ("organization_id", "conversation_id", "message_sequence") ');
    await queryRunner.query(
      'CREATE TABLE "chat_events" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "integration_id" uuid NOT NULL, "event_id" text NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_9f8bcb424ebed5c157734801fad" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "chat_events_event" ON "chat_events" ("organization_id", "integration_id", "event_id") ');
    await queryRunner.query(
      'ALTER TABLE "chat_threads" ADD CONSTRAINT "FK_58d4277e00c7dfaca15c896835f" FOREIGN KEY ("organization_id", "conversation_id") REFERENCES "conversations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "chat_threads" ADD CONSTRAINT "FK_d292012687a3602af4519fbb5e3" FOREIGN KEY ("organization_id", "integration_id") REFERENCES "integrations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "chat_replies" ADD CONSTRAINT "FK_397cc0b370454cb6859513fdb36" FOREIGN KEY ("organization_id", "conversation_id") REFERENCES "conversations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "chat_events" ADD CONSTRAINT "FK_ec91b5943cc605ffee1a49925dc" FOREIGN KEY ("organization_id", "integration_id") REFERENCES "integrations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "chat_events" DROP CONSTRAINT "FK_ec91b5943cc605ffee1a49925dc"');
    await queryRunner.query('ALTER TABLE "chat_replies" DROP CONSTRAINT "FK_397cc0b370454cb6859513fdb36"');
    await queryRunner.query('ALTER TABLE "chat_threads" DROP CONSTRAINT "FK_d292012687a3602af4519fbb5e3"');
    await queryRunner.query('ALTER TABLE "chat_threads" DROP CONSTRAINT "FK_58d4277e00c7dfaca15c896835f"');
    await queryRunner.query('DROP INDEX "public"."chat_events_event"');
    await queryRunner.query('DROP TABLE "chat_events"');
    await queryRunner.query('DROP INDEX "public"."chat_replies_message"');
    await queryRunner.query('DROP TABLE "chat_replies"');
    await queryRunner.query('DROP INDEX "public"."chat_threads_thread"');
    await queryRunner.query('DROP INDEX "public"."chat_threads_conversation"');
    await queryRunner.query('DROP TABLE "chat_threads"');
  }
}
