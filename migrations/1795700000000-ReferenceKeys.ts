import { MigrationInterface, QueryRunner } from 'typeorm';

/** Stops the migration, changing nothing, when `select` (of ids) finds rows a new key would refuse. */
async function refuseOrphans(queryRunner: QueryRunner, what: string, select: string): Promise<void> {
  const rows = (await queryRunner.query(`${select} ORDER BY 1 LIMIT 21`)) as { id: string }[];
  if (rows.length === 0) return;
  const ids = rows.slice(0, 20).map((r) => r.id);
  throw new Error(
    `Cannot add the foreign keys: there are ${what} (${ids.join(', ')}${rows.length > 20 ? ', …' : ''}). ` +
      'The service never writes such rows; decide which to keep, repair or delete them, and run the migration again.',
  );
}

/**
 * Foreign keys for the id columns whose rows must follow the row they name (the `*_id` columns
 * that stay without one, and why, are listed in test/medium/scoped-repository.test.ts):
 *
 * - `investigations` and `conversations` → `organizations`, ON DELETE CASCADE. Their key to the
 *   incident holds the Organization only while `incident_id` is set; a conversation turn's
 *   investigation and a conversation without an incident had none.
 * - `conversation_messages` (organization_id, investigation_id) → `investigations`, ON DELETE SET
 *   NULL (investigation_id): the message stays in its conversation and only the link to its turn's
 *   investigation goes (the turn itself goes with the investigation). Only the id column is set to
 *   null; the Organization stays.
 * - `relays` (organization_id, bootstrap_token_id) → `relay_bootstrap_tokens`, ON DELETE NO ACTION:
 *   the token a relay registered with is its provenance and cannot be deleted while the relay
 *   exists (deleting their Organization deletes both).
 * - `postmortems.reviewed_by_user_id` → `users`, ON DELETE SET NULL: the review stays, without the
 *   person, if the user is ever deleted (users are deployment-wide, so the key is not composite).
 *
 * Rows that break a new key are never made by the service's own writes (the parent is written or
 * read in the same transaction, and none of these parents is ever deleted); a database edited by
 * hand may hold some:
 * - a message that names an investigation its Organization does not have loses the link, as if
 *   the investigation had been deleted, and a postmortem reviewer who is not a user is cleared
 *   (the postmortem stays reviewed): only a reference to nothing is dropped;
 * - an investigation or conversation of an Organization that does not exist, or a relay whose
 *   bootstrap token its Organization does not have, stops the migration with the ids, changing
 *   nothing: those are records, and which to keep is the operator's decision, not a migration's.
 * `down` drops the keys; it does not bring the dropped references back.
 */
export class ReferenceKeys1795700000000 implements MigrationInterface {
  name = 'ReferenceKeys1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await refuseOrphans(
      queryRunner,
      'investigations whose Organization does not exist',
      'SELECT x."id" FROM "investigations" x WHERE NOT EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = x."organization_id")',
    );
    await refuseOrphans(
      queryRunner,
      'conversations whose Organization does not exist',
      'SELECT x."id" FROM "conversations" x WHERE NOT EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = x."organization_id")',
    );
    await refuseOrphans(
      queryRunner,
      'relays whose bootstrap token their Organization does not have',
      `SELECT r."id" FROM "relays" r
        WHERE NOT EXISTS (SELECT 1 FROM "relay_bootstrap_tokens" t WHERE t."organization_id" = r."organization_id" AND t."id" = r."bootstrap_token_id")`,
    );
    await queryRunner.query(
      `UPDATE "conversation_messages" m SET "investigation_id" = NULL
        WHERE m."investigation_id" IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM "investigations" i WHERE i."organization_id" = m."organization_id" AND i."id" = m."investigation_id")`,
    );
    await queryRunner.query(
      `UPDATE "postmortems" p SET "reviewed_by_user_id" = NULL
        WHERE p."reviewed_by_user_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "users" u WHERE u."id" = p."reviewed_by_user_id")`,
    );

    await queryRunner.query(
      'ALTER TABLE "investigations" ADD CONSTRAINT "investigations_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversations" ADD CONSTRAINT "conversations_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_investigation_fk" FOREIGN KEY ("organization_id", "investigation_id") REFERENCES "investigations"("organization_id","id") ON DELETE SET NULL ("investigation_id") ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "relays" ADD CONSTRAINT "relays_bootstrap_token_fk" FOREIGN KEY ("organization_id", "bootstrap_token_id") REFERENCES "relay_bootstrap_tokens"("organization_id","id") ON DELETE NO ACTION ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "postmortems" ADD CONSTRAINT "postmortems_reviewer_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "postmortems" DROP CONSTRAINT "postmortems_reviewer_fk"');
    await queryRunner.query('ALTER TABLE "relays" DROP CONSTRAINT "relays_bootstrap_token_fk"');
    await queryRunner.query('ALTER TABLE "conversation_messages" DROP CONSTRAINT "conversation_messages_investigation_fk"');
    await queryRunner.query('ALTER TABLE "conversations" DROP CONSTRAINT "conversations_organization_fk"');
    await queryRunner.query('ALTER TABLE "investigations" DROP CONSTRAINT "investigations_organization_fk"');
  }
}
