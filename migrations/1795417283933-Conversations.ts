import { MigrationInterface, QueryRunner } from 'typeorm';

export class Conversations1795417283933 implements MigrationInterface {
  name = 'Conversations1795417283933';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "conversations" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "subject" text NOT NULL, "source" text NOT NULL, "incident_id" uuid, "created_by" text NOT NULL, "last_sequence" integer NOT NULL DEFAULT \'0\', "last_turn" integer NOT NULL DEFAULT \'0\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "last_activity_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_e236bb9f9f09340d94fad7be518" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "conversations_incident" ON "conversations" ("organization_id", "incident_id", "created_at") ');
    await queryRunner.query('CREATE INDEX "conversations_created" ON "conversations" ("organization_id", "created_at", "id") ');
    await queryRunner.query(
      'CREATE TABLE "conversation_turns" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "turn" integer NOT NULL, "investigation_id" uuid NOT NULL, "message_sequence" integer NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE, "answered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_c57902694121bb0f9449ce26f47" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "conversation_turns_investigation" ON "conversation_turns" ("organization_id", "investigation_id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "conversation_turns_number" ON "conversation_turns" ("organization_id", "conversation_id", "turn", "investigation_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "conversation_messages" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "conversation_id" uuid NOT NULL, "sequence" integer NOT NULL, "role" text NOT NULL, "text" text NOT NULL, "author_id" text NOT NULL, "author_name" text NOT NULL, "source_reference" text, "investigation_id" uuid, "window_from" TIMESTAMP WITH TIME ZONE, "window_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), CONSTRAINT "PK_4fedadf6785d524107c3234cd0f" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "conversation_messages_sequence" ON "conversation_messages" ("organization_id", "conversation_id", "sequence") ',
    );
    await queryRunner.query('ALTER TABLE "investigations" ADD "conversation" jsonb');
    await queryRunner.query('ALTER TABLE "investigations" ADD "end_job" jsonb');
    await queryRunner.query('ALTER TABLE "investigations" DROP CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6"');
    await queryRunner.query('DROP INDEX "public"."investigations_incident"');
    await queryRunner.query('ALTER TABLE "investigations" ALTER COLUMN "incident_id" DROP NOT NULL');
    await queryRunner.query('CREATE INDEX "investigations_incident" ON "investigations" ("organization_id", "incident_id", "created_at") ');
    await queryRunner.query(
      'ALTER TABLE "investigations" ADD CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversations" ADD CONSTRAINT "FK_2bab30f770b060fb18ad56fdcaf" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversation_turns" ADD CONSTRAINT "FK_3429c97c06f1f0d4bef80cc3baf" FOREIGN KEY ("organization_id", "conversation_id") REFERENCES "conversations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversation_turns" ADD CONSTRAINT "FK_7d5c6016d3a45a95788f2556516" FOREIGN KEY ("organization_id", "investigation_id") REFERENCES "investigations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversation_messages" ADD CONSTRAINT "FK_c126fa6b326040213b8ba26e359" FOREIGN KEY ("organization_id", "conversation_id") REFERENCES "conversations"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "conversation_messages" DROP CONSTRAINT "FK_c126fa6b326040213b8ba26e359"');
    await queryRunner.query('ALTER TABLE "conversation_turns" DROP CONSTRAINT "FK_7d5c6016d3a45a95788f2556516"');
    await queryRunner.query('ALTER TABLE "conversation_turns" DROP CONSTRAINT "FK_3429c97c06f1f0d4bef80cc3baf"');
    await queryRunner.query('ALTER TABLE "conversations" DROP CONSTRAINT "FK_2bab30f770b060fb18ad56fdcaf"');
    await queryRunner.query('ALTER TABLE "investigations" DROP CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6"');
    await queryRunner.query('DROP INDEX "public"."investigations_incident"');
    await queryRunner.query('ALTER TABLE "investigations" ALTER COLUMN "incident_id" SET NOT NULL');
    await queryRunner.query('CREATE INDEX "investigations_incident" ON "investigations" ("organization_id", "incident_id", "created_at") ');
    await queryRunner.query(
      'ALTER TABLE "investigations" ADD CONSTRAINT "FK_13d60b8bcceee028148ffffb5c6" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query('ALTER TABLE "investigations" DROP COLUMN "end_job"');
    await queryRunner.query('ALTER TABLE "investigations" DROP COLUMN "conversation"');
    await queryRunner.query('DROP INDEX "public"."conversation_messages_sequence"');
    await queryRunner.query('DROP TABLE "conversation_messages"');
    await queryRunner.query('DROP INDEX "public"."conversation_turns_number"');
    await queryRunner.query('DROP INDEX "public"."conversation_turns_investigation"');
    await queryRunner.query('DROP TABLE "conversation_turns"');
    await queryRunner.query('DROP INDEX "public"."conversations_created"');
    await queryRunner.query('DROP INDEX "public"."conversations_incident"');
    await queryRunner.query('DROP TABLE "conversations"');
  }
}
