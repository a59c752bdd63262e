import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the Kubernetes API showed of an incident's workloads when it opened (their events expire after an hour). */
export class IncidentKubernetesSnapshots1796500000000 implements MigrationInterface {
  name = 'IncidentKubernetesSnapshots1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "incident_kubernetes_snapshots" ("organization_id" text NOT NULL, "id" uuid NOT NULL, "incident_id" uuid NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL, "taken_at" TIMESTAMP WITH TIME ZONE, "runs" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_incident_kubernetes_snapshots" PRIMARY KEY ("organization_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "incident_kubernetes_snapshots_incident" ON "incident_kubernetes_snapshots" ("organization_id", "incident_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "incident_kubernetes_snapshots" ADD CONSTRAINT "incident_kubernetes_snapshots_incident_fk" FOREIGN KEY ("organization_id", "incident_id") REFERENCES "incidents"("organization_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "incident_kubernetes_snapshots" ADD CONSTRAINT "incident_kubernetes_snapshots_organization_fk" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "incident_kubernetes_snapshots"`);
  }
}
