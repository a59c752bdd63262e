import { MigrationInterface, QueryRunner } from 'typeorm';
import { ADMIT_ALERT_BATCH } from './1795500000000-AdmitAlertBatch';

/**
 * `admit_alert_batch` (the incidents library's; see the migration that created it) with every
 * incident it reads or writes found by its key, one at a time: a group's open incident by the
 * one-open-per-group index, its lock and its counts by the primary key. The joins it replaces
 * (open incidents to the batch's groups, and the counts update) were planned while the
 * incidents table was small, and a cached plan that scans the table's index for every batch
 * kept doing so as it grew: each batch cost time in proportion to the open incidents of every
 * Organization, until the next autoanalyze.
 *
 * The rest is as before: exact retries of stored phases set aside; each group's open incident
 * opened (at its earliest firing phase) when it has none, or else locked, in id order; then the
 * events, alert states and counts. A group with no open incident to go to raises SVA01 at once.
 */
const ADMIT_ALERT_BATCH_BY_KEY = `
CREATE OR REPLACE FUNCTION admit_alert_batch(
  a_organization_id text[], a_integration_id uuid[], a_group_key text[], a_group_labels jsonb[], a_title text[], a_opened_id uuid[],
  a_event_id uuid[], a_delivery_id uuid[], a_fingerprint text[], a_status text[], a_labels jsonb[], a_annotations jsonb[],
  a_starts_at timestamptz[], a_ends_at timestamptz[], a_phase_at timestamptz[], a_generator_url text[], a_received_at timestamptz[])
RETURNS TABLE (alert_n int, alert_incident_id uuid, alert_outcome text)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $fn$
DECLARE
  stored_n int[] := '{}';
  stored_incident uuid[] := '{}';
  stored_in uuid;
  found_incident uuid;
  g record;
  existing_organization text[] := '{}';
  existing_integration uuid[] := '{}';
  existing_group text[] := '{}';
  existing_id uuid[] := '{}';
  open_organization text[] := '{}';
  open_integration uuid[] := '{}';
  open_group text[] := '{}';
  open_id uuid[] := '{}';
  inserted_ids uuid[] := '{}';
  delta_organization text[];
  delta_incident uuid[];
  delta_alerts int[];
  delta_firing int[];
  delta_resolution timestamptz[];
BEGIN
  -- Exact retries of stored phases: duplicates, reported with the incident they went to.
  FOR i IN 1 .. coalesce(cardinality(a_event_id), 0) LOOP
    SELECT e.incident_id INTO stored_in FROM alert_events e
     WHERE e.organization_id = a_organization_id[i] AND e.integration_id = a_integration_id[i] AND e.fingerprint = a_fingerprint[i]
       AND e.status = a_status[i] AND e.phase_at = a_phase_at[i];
    IF FOUND THEN
      stored_n := stored_n || i;
      stored_incident := stored_incident || stored_in;
    END IF;
  END LOOP;

  IF cardinality(stored_n) < cardinality(a_event_id) THEN
    -- Each group of the phases to store, with its earliest firing phase when it has one: its open
    -- incident when there is one (locked below); else opened at that phase (the partial unique
    -- index decides races with other admissions). A resolution with no open incident to go to, or
    -- an incident opened by another admission meanwhile, is for the one-by-one path.
    FOR g IN
      SELECT DISTINCT ON (a.organization_id, a.integration_id, a.group_key) a.*
        FROM unnest(a_organization_id, a_integration_id, a_group_key, a_group_labels, a_title, a_opened_id, a_status, a_phase_at)
             WITH ORDINALITY AS a(organization_id, integration_id, group_key, group_labels, title, opened_id, status, phase_at, n)
       WHERE NOT (a.n::int = ANY (stored_n))
       ORDER BY a.organization_id, a.integration_id, a.group_key, a.status = 'firing' DESC, a.phase_at, a.n
    LOOP
      SELECT i.id INTO found_incident FROM incidents i
       WHERE i.organization_id = g.organization_id AND i.integration_id = g.integration_id AND i.group_key = g.group_key AND i.status = 'open';
      IF FOUND THEN
        existing_organization := existing_organization || g.organization_id;
        existing_integration := existing_integration || g.integration_id;
        existing_group := existing_group || g.group_key;
        existing_id := existing_id || found_incident;
        CONTINUE;
      END IF;
      IF g.status = 'firing' THEN
        INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
        VALUES (g.organization_id, g.opened_id, g.integration_id, g.group_key, 'open', g.title, g.group_labels, g.phase_at)
        ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING;
      END IF;
      IF g.status <> 'firing' OR NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SVA01', MESSAGE = 'an alert of the batch has no open incident to go to';
      END IF;
      open_organization := open_organization || g.organization_id;
      open_integration := open_integration || g.integration_id;
      open_group := open_group || g.group_key;
      open_id := open_id || g.opened_id;
    END LOOP;

    -- The open incidents that existed, locked in id order (the order every admission locks in);
    -- one resolved or merged before its lock was granted leaves its group with nowhere to go.
    FOR g IN
      SELECT * FROM unnest(existing_organization, existing_integration, existing_group, existing_id) AS x(organization_id, integration_id, group_key, id)
       ORDER BY x.id
    LOOP
      EXECUTE $q$SELECT i.id FROM incidents i WHERE i.organization_id = $1 AND i.id = $2 AND i.status = 'open' FOR UPDATE$q$
         INTO found_incident USING g.organization_id, g.id;
      IF found_incident IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SVA01', MESSAGE = 'an alert of the batch has no open incident to go to';
      END IF;
    END LOOP;
    open_organization := open_organization || existing_organization;
    open_integration := open_integration || existing_integration;
    open_group := open_group || existing_group;
    open_id := open_id || existing_id;

    -- The phases stored in their group's open incident; then, in the same statement (a fresh
    -- snapshot, taken under the locks), the alert states advanced to the latest phase, and what
    -- changed in each incident's counts.
    WITH placed AS (
      SELECT * FROM unnest(open_organization, open_integration, open_group, open_id) AS p(organization_id, integration_id, group_key, id)
    ), fresh AS (
      SELECT a.*, p.id AS incident_id
        FROM unnest(a_organization_id, a_integration_id, a_group_key, a_event_id, a_delivery_id, a_fingerprint, a_status, a_labels, a_annotations,
                    a_starts_at, a_ends_at, a_phase_at, a_generator_url, a_received_at)
             WITH ORDINALITY AS a(organization_id, integration_id, group_key, event_id, delivery_id, fingerprint, status, labels, annotations,
                                  starts_at, ends_at, phase_at, generator_url, received_at, n)
        JOIN placed p ON p.organization_id = a.organization_id AND p.integration_id = a.integration_id AND p.group_key = a.group_key
       WHERE NOT (a.n::int = ANY (stored_n))
    ), inserted AS (
      INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, ends_at, phase_at, generator_url, received_at)
      SELECT organization_id, event_id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, ends_at, phase_at, generator_url, received_at
        FROM fresh ORDER BY n
      ON CONFLICT (organization_id, integration_id, fingerprint, status, phase_at) DO NOTHING
      RETURNING id, organization_id, incident_id, fingerprint, status, phase_at
    ), latest AS (
      -- Phases order by time, a resolution after a firing at the same instant.
      SELECT DISTINCT ON (organization_id, incident_id, fingerprint) organization_id, incident_id, fingerprint, status, phase_at FROM inserted
       ORDER BY organization_id, incident_id, fingerprint, phase_at DESC, (status = 'resolved') DESC
    ), judged AS (
      SELECT l.organization_id, l.incident_id, l.fingerprint, l.status, l.phase_at, s.status AS old_status, s.fingerprint IS NULL AS is_new,
             (s.fingerprint IS NULL OR l.phase_at > s.phase_at OR (l.phase_at = s.phase_at AND l.status = 'resolved' AND s.status <> 'resolved')) AS advances
        FROM latest l
        LEFT JOIN incident_alerts s ON s.organization_id = l.organization_id AND s.incident_id = l.incident_id AND s.fingerprint = l.fingerprint
    ), states AS (
      INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at)
      SELECT organization_id, incident_id, fingerprint, status, phase_at FROM judged WHERE advances
      ON CONFLICT (organization_id, incident_id, fingerprint) DO UPDATE SET status = EXCLUDED.status, phase_at = EXCLUDED.phase_at
    ), deltas AS (
      SELECT j.organization_id, j.incident_id,
             count(*) FILTER (WHERE j.is_new)::int AS alerts,
             (count(*) FILTER (WHERE CASE WHEN j.advances THEN j.status ELSE j.old_status END = 'firing')
              - count(*) FILTER (WHERE j.old_status = 'firing'))::int AS firing,
             (SELECT max(r.phase_at) FROM inserted r
               WHERE r.organization_id = j.organization_id AND r.incident_id = j.incident_id AND r.status = 'resolved') AS last_resolution
        FROM judged j GROUP BY j.organization_id, j.incident_id
    )
    SELECT coalesce((SELECT array_agg(r.id) FROM inserted r), '{}'),
           array_agg(d.organization_id), array_agg(d.incident_id), array_agg(d.alerts), array_agg(d.firing), array_agg(d.last_resolution)
      INTO inserted_ids, delta_organization, delta_incident, delta_alerts, delta_firing, delta_resolution
      FROM deltas d;

    -- Each incident's counts, by its key; an open incident with nothing firing resolves. This and
    -- the lock above are planned at each call (EXECUTE), with the key's values: a plan cached while
    -- the table was small may find a row by the incidents_opened index (Organization only) as
    -- readily as by the primary key, then keep scanning all of the Organization's incidents.
    FOR g IN
      SELECT * FROM unnest(delta_organization, delta_incident, delta_alerts, delta_firing, delta_resolution) AS d(organization_id, id, alerts, firing, last_resolution)
    LOOP
      EXECUTE $q$
        UPDATE incidents i SET
          alert_count = i.alert_count + $3,
          firing_count = i.firing_count + $4,
          last_resolution_at = GREATEST(i.last_resolution_at, $5),
          status = CASE WHEN i.status = 'open' AND i.firing_count + $4 = 0 AND i.alert_count + $3 > 0 THEN 'resolved' ELSE i.status END,
          resolved_at = CASE WHEN i.status = 'open' AND i.firing_count + $4 = 0 AND i.alert_count + $3 > 0
                             THEN COALESCE(GREATEST(i.last_resolution_at, $5), clock_timestamp()) ELSE i.resolved_at END,
          updated_at = clock_timestamp()
         WHERE i.organization_id = $1 AND i.id = $2$q$
      USING g.organization_id, g.id, g.alerts, g.firing, g.last_resolution;
    END LOOP;
  END IF;

  RETURN QUERY
    SELECT s.n, s.incident_id, 'stored'::text FROM unnest(stored_n, stored_incident) AS s(n, incident_id)
    UNION ALL
    SELECT a.n::int, p.id, CASE WHEN a.event_id = ANY (inserted_ids) THEN 'accepted' ELSE 'retried' END
      FROM unnest(a_organization_id, a_integration_id, a_group_key, a_event_id) WITH ORDINALITY AS a(organization_id, integration_id, group_key, event_id, n)
      JOIN unnest(open_organization, open_integration, open_group, open_id) AS p(organization_id, integration_id, group_key, id)
        ON p.organization_id = a.organization_id AND p.integration_id = a.integration_id AND p.group_key = a.group_key
     WHERE NOT (a.n::int = ANY (stored_n));
END
$fn$`;

export class AdmitAlertBatchByKey1795600000000 implements MigrationInterface {
  name = 'AdmitAlertBatchByKey1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ADMIT_ALERT_BATCH_BY_KEY);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ADMIT_ALERT_BATCH.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
}
