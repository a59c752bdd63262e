import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every committed change to an integration row (secret rotated, enabled or disabled, configuration
 * edited, deleted) is announced on `svc_integration_changed` with the integration's id, so each API
 * process drops its cached webhook authentication at once. A trigger, so no write path can forget it.
 */
export class IntegrationChangeNotify1795400000000 implements MigrationInterface {
  name = 'IntegrationChangeNotify1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION svc_notify_integration_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('svc_integration_changed', OLD.id::text);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER integrations_changed AFTER UPDATE OR DELETE ON integrations
      FOR EACH ROW EXECUTE FUNCTION svc_notify_integration_changed()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER integrations_changed ON integrations');
    await queryRunner.query('DROP FUNCTION svc_notify_integration_changed()');
  }
}
