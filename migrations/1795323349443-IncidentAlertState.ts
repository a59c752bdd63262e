import { MigrationInterface, QueryRunner } from 'typeorm';

export class IncidentAlertState1795323349443 implements MigrationInterface {
  name = 'IncidentAlertState1795323349443';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "incident_alerts" ("organization_id" text NOT NULL, "incident_id" uuid NOT NULL, "fingerprint" text NOT NULL, "status" text NOT NULL, "phase_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_aaed84cf91f3015251ff704c64e" PRIMARY KEY ("organization_id", "incident_id", "fingerprint"))',
    );
    await queryRunner.query('ALTER TABLE "incidents" ADD "firing_count" integer NOT NULL DEFAULT \'0\'');
    await queryRunner.query('ALTER TABLE "incidents" ADD "last_resolution_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query(
      'ALTER TABLE "incident_alerts" ADD CONSTRAINT "FK_a58ba7f9c31045bac2e313c1124" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // Existing incidents: each alert's latest phase, then the counts that follow from it.
    await queryRunner.query(`INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at)
      SELECT DISTINCT ON (organization_id, incident_id, fingerprint) organization_id, incident_id, fingerprint, status, phase_at
        FROM alert_events ORDER BY organization_id, incident_id, fingerprint, phase_at DESC, (status = 'resolved') DESC`);
    await queryRunner.query(`UPDATE incidents i SET
        alert_count = s.alerts, firing_count = s.firing,
        last_resolution_at = (SELECT max(phase_at) FROM alert_events e WHERE e.organization_id = i.organization_id AND e.incident_id = i.id AND e.status = 'resolved')
      FROM (SELECT organization_id, incident_id, count(*)::int AS alerts, count(*) FILTER (WHERE status = 'firing')::int AS firing
              FROM incident_alerts GROUP BY organization_id, incident_id) s
      WHERE s.organization_id = i.organization_id AND s.incident_id = i.id`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "incident_alerts" DROP CONSTRAINT "FK_a58ba7f9c31045bac2e313c1124"');
    await queryRunner.query('ALTER TABLE "incidents" DROP COLUMN "last_resolution_at"');
    await queryRunner.query('ALTER TABLE "incidents" DROP COLUMN "firing_count"');
    await queryRunner.query('DROP TABLE "incident_alerts"');
  }
}
