import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `admit_alert_batch`: the incidents library's batched admission of alert phases (its arguments
 * are built by `alertBatchArguments`; `admit_webhook_deliveries` below calls it), as one database
 * function, so that the incidents a batch locks are held for no client round trip: once a lock is
 * granted, the events, states and counts are written and the statement commits without waiting
 * for the API. Each statement in it takes a fresh snapshot (READ COMMITTED, VOLATILE), so the
 * states read after the lock include what the transaction that held it committed.
 *
 * Every row it reads is found by key. Its cached plans are made on the first calls of a session,
 * possibly while a table is small or not yet analyzed (a fresh database); a plan that drives a
 * join from alert_events, or scans and hashes it, would keep doing so as the table grows, until
 * the next autoanalyze. So stored phases are looked up one by one by their full unique key, and
 * sequential scans, hash and merge joins are off inside it.
 *
 * One row of the `a_` arrays per alert phase. Returns one row per phase: its position (1-based),
 * its incident and `stored` (an exact retry of a stored phase), `accepted` or `retried` (stored
 * meanwhile by a concurrent admission, or twice in this batch). Raises SQLSTATE SVA01 when a group
 * has no open incident to go to (the caller admits those deliveries one by one).
 */
export const ADMIT_ALERT_BATCH = `
CREATE FUNCTION admit_alert_batch(
  a_organization_id text[], a_integration_id uuid[], a_group_key text[], a_group_labels jsonb[], a_title text[], a_opened_id uuid[],
  a_event_id uuid[], a_delivery_id uuid[], a_fingerprint text[], a_status text[], a_labels jsonb[], a_annotations jsonb[],
  a_starts_at timestamptz[], a_ends_at timestamptz[], a_phase_at timestamptz[], a_generator_url text[], a_received_at timestamptz[])
RETURNS TABLE (alert_n int, alert_incident_id uuid, alert_outcome text)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $fn$
DECLARE
  stored_n int[];
  stored_incident uuid[];
  stored_in uuid;
  open_organization text[];
  open_integration uuid[];
  open_group text[];
  open_id uuid[];
  inserted_ids uuid[];
  unplaced boolean;
BEGIN
  -- Exact retries of stored phases: duplicates, reported with the incident they went to. One
  -- lookup by the full unique key per phase: a join would leave the planner free to drive it from
  -- alert_events, which it does when its statistics still say the table is small.
  stored_n := '{}';
  stored_incident := '{}';
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
    -- Each group with a firing phase gets an open incident when it has none (opened at its earliest
    -- firing phase; the partial unique index decides races), then the open incident of every group
    -- is locked, in id order. A group whose open incident exists is not inserted at all, so this
    -- waits on nothing but the lock.
    WITH fresh AS (
      SELECT a.* FROM unnest(a_organization_id, a_integration_id, a_group_key, a_group_labels, a_title, a_opened_id, a_status, a_phase_at)
        WITH ORDINALITY AS a(organization_id, integration_id, group_key, group_labels, title, opened_id, status, phase_at, n)
       WHERE NOT (a.n::int = ANY (stored_n))
    ), openers AS (
      SELECT DISTINCT ON (organization_id, integration_id, group_key) * FROM fresh
       WHERE status = 'firing' ORDER BY organization_id, integration_id, group_key, phase_at, n
    ), opened AS (
      INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
      SELECT g.organization_id, g.opened_id, g.integration_id, g.group_key, 'open', g.title, g.group_labels, g.phase_at FROM openers g
       WHERE NOT EXISTS (
               SELECT 1 FROM incidents o
                WHERE o.organization_id = g.organization_id AND o.integration_id = g.integration_id AND o.group_key = g.group_key AND o.status = 'open')
      ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING
      RETURNING id, organization_id, integration_id, group_key
    ), locked AS (
      SELECT i.id, i.organization_id, i.integration_id, i.group_key FROM incidents i
        JOIN (SELECT DISTINCT organization_id, integration_id, group_key FROM fresh) g
          ON i.organization_id = g.organization_id AND i.integration_id = g.integration_id AND i.group_key = g.group_key
       WHERE i.status = 'open'
       ORDER BY i.id
         FOR UPDATE OF i
    ), placed AS (SELECT * FROM opened UNION ALL SELECT * FROM locked)
    SELECT array_agg(p.organization_id), array_agg(p.integration_id), array_agg(p.group_key), array_agg(p.id),
           EXISTS (SELECT 1 FROM fresh f WHERE NOT EXISTS (
             SELECT 1 FROM placed q WHERE q.organization_id = f.organization_id AND q.integration_id = f.integration_id AND q.group_key = f.group_key))
      INTO open_organization, open_integration, open_group, open_id, unplaced
      FROM placed p;

    IF unplaced THEN
      -- A resolution with no open incident to go to, or an incident opened or resolved by another
      -- admission meanwhile: the one-by-one path decides those (what this opened is rolled back).
      RAISE EXCEPTION USING ERRCODE = 'SVA01', MESSAGE = 'an alert of the batch has no open incident to go to';
    END IF;

    -- The phases stored in their group's open incident; then, in the same statement (a fresh
    -- snapshot, taken under the locks), the alert states advanced to the latest phase and each
    -- incident's counts changed by what changed; an open incident with nothing firing resolves.
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
    ), applied AS (
      UPDATE incidents i SET
        alert_count = i.alert_count + d.alerts,
        firing_count = i.firing_count + d.firing,
        last_resolution_at = GREATEST(i.last_resolution_at, d.last_resolution),
        status = CASE WHEN i.status = 'open' AND i.firing_count + d.firing = 0 AND i.alert_count + d.alerts > 0 THEN 'resolved' ELSE i.status END,
        resolved_at = CASE WHEN i.status = 'open' AND i.firing_count + d.firing = 0 AND i.alert_count + d.alerts > 0
                           THEN COALESCE(GREATEST(i.last_resolution_at, d.last_resolution), clock_timestamp()) ELSE i.resolved_at END,
        updated_at = clock_timestamp()
        FROM deltas d
       WHERE i.organization_id = d.organization_id AND i.id = d.incident_id
    )
    SELECT coalesce(array_agg(id), '{}') INTO inserted_ids FROM inserted;
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

/**
 * `webhook_secret_holds`: the integrations library's. The webhook secret hash of each enabled
 * integration among the (organization, id) pairs, with its row locked FOR KEY SHARE until the
 * caller's transaction ends, so no rotation, disable or delete commits in between (see
 * WebhookAuthenticator.stillCurrent).
 */
const WEBHOOK_SECRET_HOLDS = `
CREATE FUNCTION webhook_secret_holds(organization_ids text[], ids uuid[])
RETURNS TABLE (organization_id text, integration_id uuid, secret_hash bytea)
LANGUAGE plpgsql VOLATILE SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $fn$
BEGIN
  RETURN QUERY
    SELECT i.organization_id, i.id, i.webhook_secret_hash FROM integrations i
      JOIN (SELECT DISTINCT * FROM unnest(organization_ids, ids) AS u(organization_id, id)) k ON i.organization_id = k.organization_id AND i.id = k.id
     WHERE i.enabled AND i.webhook_secret_hash IS NOT NULL
     ORDER BY i.id
       FOR KEY SHARE OF i;
END
$fn$`;

/**
 * `admit_webhook_deliveries`: the alerts library's. A batch of webhook deliveries admitted and
 * recorded in one statement, so in one round trip and one transaction of its own:
 *
 * 1. Each delivery that carries a credential (the hash its sender was authenticated with) is
 *    checked against its integration's current one, held by `webhook_secret_holds`. When any is
 *    no longer current, nothing is written: the stale deliveries are returned with status 401 and
 *    the caller admits the others again.
 * 2. The alerts (`a_delivery_n`: the 1-based delivery of each) go through `admit_alert_batch`.
 * 3. Each delivery is recorded with what became of its alerts: 202, or 200 when every phase was
 *    already stored; its incidents in the order they appear (retries of stored phases first).
 *
 * Returns one row per delivery: its position, status, accepted and duplicate counts, incident ids.
 */
const ADMIT_WEBHOOK_DELIVERIES = `
CREATE FUNCTION admit_webhook_deliveries(
  d_organization_id text[], d_id uuid[], d_integration_id uuid[], d_credential bytea[], d_error text[], d_headers jsonb[], d_body text[], d_replay_of uuid[],
  a_delivery_n int[], a_organization_id text[], a_integration_id uuid[], a_group_key text[], a_group_labels jsonb[], a_title text[], a_opened_id uuid[],
  a_event_id uuid[], a_delivery_id uuid[], a_fingerprint text[], a_status text[], a_labels jsonb[], a_annotations jsonb[],
  a_starts_at timestamptz[], a_ends_at timestamptz[], a_phase_at timestamptz[], a_generator_url text[], a_received_at timestamptz[])
RETURNS TABLE (delivery_n int, delivery_status int, delivery_accepted int, delivery_duplicates int, delivery_incident_ids jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  stale int[];
BEGIN
  SELECT coalesce(array_agg(d.n::int), '{}') INTO stale
    FROM unnest(d_organization_id, d_integration_id, d_credential) WITH ORDINALITY AS d(organization_id, integration_id, credential, n)
    LEFT JOIN webhook_secret_holds(d_organization_id, d_integration_id) h ON h.organization_id = d.organization_id AND h.integration_id = d.integration_id
   WHERE d.credential IS NOT NULL AND h.secret_hash IS DISTINCT FROM d.credential;
  IF cardinality(stale) > 0 THEN
    RETURN QUERY SELECT s, 401, 0, 0, '[]'::jsonb FROM unnest(stale) AS s;
    RETURN;
  END IF;

  RETURN QUERY
    WITH admitted AS (
      SELECT a_delivery_n[b.alert_n] AS n, b.alert_n, b.alert_incident_id AS incident_id, b.alert_outcome AS outcome
        FROM admit_alert_batch(a_organization_id, a_integration_id, a_group_key, a_group_labels, a_title, a_opened_id, a_event_id, a_delivery_id,
                               a_fingerprint, a_status, a_labels, a_annotations, a_starts_at, a_ends_at, a_phase_at, a_generator_url, a_received_at) AS b
    ), delivery_incidents AS (
      SELECT x.n, jsonb_agg(x.incident_id ORDER BY x.first) AS ids
        FROM (SELECT a.n, a.incident_id, min(CASE WHEN a.outcome = 'stored' THEN a.alert_n ELSE a.alert_n + 1000000000 END) AS first
                FROM admitted a GROUP BY a.n, a.incident_id) x
       GROUP BY x.n
    ), results AS (
      SELECT d.n::int AS n,
             count(a.alert_n) FILTER (WHERE a.outcome = 'accepted')::int AS accepted,
             count(a.alert_n) FILTER (WHERE a.outcome <> 'accepted')::int AS duplicates
        FROM unnest(d_id) WITH ORDINALITY AS d(id, n)
        LEFT JOIN admitted a ON a.n = d.n
       GROUP BY d.n
    ), recorded AS (
      INSERT INTO webhook_deliveries (organization_id, id, integration_id, status_code, accepted, duplicates, incident_ids, error, headers, body, replay_of)
      SELECT d_organization_id[r.n], d_id[r.n], d_integration_id[r.n], CASE WHEN r.accepted = 0 AND r.duplicates > 0 THEN 200 ELSE 202 END,
             r.accepted, r.duplicates, coalesce(i.ids, '[]'::jsonb), d_error[r.n], d_headers[r.n], d_body[r.n], d_replay_of[r.n]
        FROM results r LEFT JOIN delivery_incidents i ON i.n = r.n
      RETURNING id, status_code, accepted, duplicates, incident_ids
    )
    SELECT r.n, rec.status_code, rec.accepted, rec.duplicates, rec.incident_ids
      FROM recorded rec JOIN results r ON d_id[r.n] = rec.id;
END
$fn$`;

export class AdmitAlertBatch1795500000000 implements MigrationInterface {
  name = 'AdmitAlertBatch1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(ADMIT_ALERT_BATCH);
    await queryRunner.query(WEBHOOK_SECRET_HOLDS);
    await queryRunner.query(ADMIT_WEBHOOK_DELIVERIES);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION admit_webhook_deliveries');
    await queryRunner.query('DROP FUNCTION webhook_secret_holds');
    await queryRunner.query('DROP FUNCTION admit_alert_batch');
  }
}
