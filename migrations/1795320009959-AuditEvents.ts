import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEvents1795320009959 implements MigrationInterface {
  name = 'AuditEvents1795320009959';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "audit_events" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(), "actor_kind" text NOT NULL, "actor_id" text, "actor_name" text, "action" text NOT NULL, "target_kind" text, "target_id" text, "outcome" text NOT NULL, "source_address" text, "request_id" text, "detail" jsonb NOT NULL, CONSTRAINT "PK_46550de018654a2560d1e5fe59b" PRIMARY KEY ("organization_id", "id"))',
    );
    await queryRunner.query('CREATE INDEX "audit_events_action" ON "audit_events" ("organization_id", "action", "occurred_at") ');
    await queryRunner.query('CREATE INDEX "audit_events_actor" ON "audit_events" ("organization_id", "actor_id", "occurred_at") ');
    await queryRunner.query('CREATE INDEX "audit_events_time" ON "audit_events" ("organization_id", "occurred_at", "id") ');
    await queryRunner.query(
      'ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    // Append-only: the database itself refuses to change or remove an audit event.
    await queryRunner.query(`CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(
      'CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()',
    );
    await queryRunner.query(
      'CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER audit_events_no_truncate ON audit_events');
    await queryRunner.query('DROP TRIGGER audit_events_no_update_delete ON audit_events');
    await queryRunner.query('DROP FUNCTION audit_events_append_only()');
    await queryRunner.query('ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_organization_fk"');
    await queryRunner.query('DROP INDEX "public"."audit_events_time"');
    await queryRunner.query('DROP INDEX "public"."audit_events_actor"');
    await queryRunner.query('DROP INDEX "public"."audit_events_action"');
    await queryRunner.query('DROP TABLE "audit_events"');
  }
}
