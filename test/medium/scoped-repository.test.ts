import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions, MissingOrganizationError, newId, ScopedRepository } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { MembershipRow as Membership } from '../support/membership-row';

describe('ScopedRepository against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let memberships: ScopedRepository<Membership>;
  const userId = newId();
  const ids = { a: newId(), b: newId() };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, entities: [Membership] })).initialize();
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    await dataSource.query(`INSERT INTO users (id, email, name) VALUES ($1, 'u@example.com', 'U')`, [userId]);
    memberships = new ScopedRepository(dataSource.getRepository(Membership));
    await memberships.insert('org-a', { id: ids.a, userId, role: 'admin' });
    await memberships.insert('org-b', { id: ids.b, userId, role: 'viewer' });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('every read requires an Organization: none, empty or malformed throws before any query', async () => {
    for (const org of [undefined, null, '', 'Not An Org', "org-a' OR 1=1 --"] as unknown as string[]) {
      await expect(memberships.find(org)).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.findById(org, ids.a)).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.count(org)).rejects.toBeInstanceOf(MissingOrganizationError);
      expect(() => memberships.query(org, 'm')).toThrow(MissingOrganizationError);
      await expect(memberships.delete(org, { id: ids.a })).rejects.toBeInstanceOf(MissingOrganizationError);
      await expect(memberships.update(org, { id: ids.a }, { role: 'editor' })).rejects.toBeInstanceOf(MissingOrganizationError);
    }
  });

  it("returns only the Organization's rows, and another Organization's id is simply not found", async () => {
    expect((await memberships.find('org-a')).map((m) => m.id)).toEqual([ids.a]);
    expect(await memberships.findById('org-a', ids.b)).toBeNull();
    expect((await memberships.findById('org-b', ids.b))?.role).toBe('viewer');
    expect(await memberships.count('org-a')).toBe(1);
  });

  it('a condition cannot widen the scope: naming organizationId throws, OR-lists stay scoped', async () => {
    await expect(memberships.find('org-a', { where: { organizationId: 'org-b' } })).rejects.toThrow(/set by the scope/);
    const either = await memberships.find('org-a', { where: [{ id: ids.a }, { id: ids.b }] });
    expect(either.map((m) => m.id)).toEqual([ids.a]);
  });

  it('the query builder refuses where/orWhere, which would replace or escape the scope', async () => {
    expect(() => memberships.query('org-a', 'm').where('1=1')).toThrow(/andWhere/);
    expect(() => memberships.query('org-a', 'm').orWhere('1=1')).toThrow(/andWhere/);
    const rows = await memberships
      .query('org-a', 'm')
      .andWhere('m.id IN (:...ids)', { ids: [ids.a, ids.b] })
      .getMany();
    expect(rows.map((m) => m.id)).toEqual([ids.a]);
  });

  it("writes stay in the Organization: update and delete of another Organization's id touch nothing", async () => {
    expect(await memberships.update('org-a', { id: ids.b }, { role: 'admin' })).toBe(0);
    expect(await memberships.delete('org-a', { id: ids.b })).toBe(0);
    expect((await memberships.findById('org-b', ids.b))?.role).toBe('viewer');
    await expect(memberships.insert('org-a', { id: newId(), userId, role: 'viewer', organizationId: 'org-b' } as never)).rejects.toThrow(/set by the scope/);
  });

  it('the same id may not be reused inside one Organization', async () => {
    await expect(
      dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('org-a', $1, $2, 'viewer')`, [ids.a, newId()]),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

/**
 * Every child table refers to its parent by (organization_id, parent id), so a row can never hang
 * under another Organization's parent. Each such key is named here with what deleting the parent
 * does; the catalog checks below make a composite key without a case here fail, and a key here
 * that the database lacks or holds differently.
 */
const COMPOSITE_KEYS = [
  { child: 'investigations', column: 'incident_id', parent: 'incidents', onDelete: 'CASCADE', constraint: 'FK_13d60b8bcceee028148ffffb5c6' },
  { child: 'alert_events', column: 'incident_id', parent: 'incidents', onDelete: 'CASCADE', constraint: 'FK_a8b353cca87d67b0388fb70c442' },
  { child: 'incident_alerts', column: 'incident_id', parent: 'incidents', onDelete: 'CASCADE', constraint: 'FK_a58ba7f9c31045bac2e313c1124' },
  { child: 'tool_runs', column: 'investigation_id', parent: 'investigations', onDelete: 'CASCADE', constraint: 'FK_3d68dbb942ed0a5518de5baaaab' },
  { child: 'investigation_sources', column: 'investigation_id', parent: 'investigations', onDelete: 'CASCADE', constraint: 'FK_16b9f22216134a1f90c95c0879d' },
  { child: 'investigation_activity', column: 'investigation_id', parent: 'investigations', onDelete: 'CASCADE', constraint: 'FK_a2cffa18008245a70b68c39d9d8' },
  { child: 'conversations', column: 'incident_id', parent: 'incidents', onDelete: 'CASCADE', constraint: 'FK_2bab30f770b060fb18ad56fdcaf' },
  { child: 'conversation_messages', column: 'conversation_id', parent: 'conversations', onDelete: 'CASCADE', constraint: 'FK_c126fa6b326040213b8ba26e359' },
  // The message stays in its conversation; only the link to its turn's investigation goes.
  {
    child: 'conversation_messages',
    column: 'investigation_id',
    parent: 'investigations',
    onDelete: 'SET NULL (investigation_id)',
    constraint: 'conversation_messages_investigation_fk',
  },
  { child: 'conversation_turns', column: 'conversation_id', parent: 'conversations', onDelete: 'CASCADE', constraint: 'FK_3429c97c06f1f0d4bef80cc3baf' },
  { child: 'conversation_turns', column: 'investigation_id', parent: 'investigations', onDelete: 'CASCADE', constraint: 'FK_7d5c6016d3a45a95788f2556516' },
  { child: 'postmortems', column: 'incident_id', parent: 'incidents', onDelete: 'CASCADE', constraint: 'FK_36b21cf8b891833230bb8e9f34d' },
  {
    child: 'incident_kubernetes_snapshots',
    column: 'incident_id',
    parent: 'incidents',
    onDelete: 'CASCADE',
    constraint: 'incident_kubernetes_snapshots_incident_fk',
  },
  { child: 'postmortem_revisions', column: 'postmortem_id', parent: 'postmortems', onDelete: 'CASCADE', constraint: 'FK_1e67d4ed3178c3fc0c3fe3f793f' },
  // A relay's provenance: its token cannot be deleted while the relay exists.
  { child: 'relays', column: 'bootstrap_token_id', parent: 'relay_bootstrap_tokens', onDelete: 'NO ACTION', constraint: 'relays_bootstrap_token_fk' },
  { child: 'relay_capabilities', column: 'relay_id', parent: 'relays', onDelete: 'CASCADE', constraint: 'FK_33366a27757f3bff9816c2fbe5b' },
  { child: 'relay_session_conflicts', column: 'relay_id', parent: 'relays', onDelete: 'CASCADE', constraint: 'FK_e23a17f6327cea1aa6bbde3db1b' },
  { child: 'relay_jobs', column: 'relay_id', parent: 'relays', onDelete: 'CASCADE', constraint: 'FK_1c99c6da96b8c16aa8047bcd21e' },
  { child: 'chat_threads', column: 'conversation_id', parent: 'conversations', onDelete: 'CASCADE', constraint: 'FK_58d4277e00c7dfaca15c896835f' },
  { child: 'chat_threads', column: 'integration_id', parent: 'integrations', onDelete: 'CASCADE', constraint: 'FK_d292012687a3602af4519fbb5e3' },
  { child: 'chat_replies', column: 'conversation_id', parent: 'conversations', onDelete: 'CASCADE', constraint: 'FK_397cc0b370454cb6859513fdb36' },
  { child: 'chat_events', column: 'integration_id', parent: 'integrations', onDelete: 'CASCADE', constraint: 'FK_ec91b5943cc605ffee1a49925dc' },
] as const;

/**
 * The single-column keys of Organization-owned tables: to the Organization itself (every table
 * whose composite keys do not always hold it) and to deployment-wide users.
 */
const SINGLE_COLUMN_KEYS = [
  ...(
    [
      ['api_tokens', 'CASCADE'],
      // An Organization with audit events cannot be deleted.
      ['audit_events', 'RESTRICT'],
      ['change_events', 'CASCADE'],
      // Their key to the incident holds the Organization only while incident_id is set.
      ['conversations', 'CASCADE'],
      ['incident_kubernetes_snapshots', 'CASCADE'],
      ['incidents', 'CASCADE'],
      ['integrations', 'CASCADE'],
      ['investigations', 'CASCADE'],
      ['memberships', 'CASCADE'],
      ['policies', 'CASCADE'],
      ['relay_bootstrap_tokens', 'CASCADE'],
      ['relays', 'CASCADE'],
      ['service_calls', 'CASCADE'],
      ['webhook_deliveries', 'CASCADE'],
    ] as const
  ).map(([child, onDelete]) => ({ child, column: 'organization_id', parent: 'organizations', onDelete })),
  { child: 'memberships', column: 'user_id', parent: 'users', onDelete: 'CASCADE' },
  // The review stays, without the person, if the user is ever deleted.
  { child: 'postmortems', column: 'reviewed_by_user_id', parent: 'users', onDelete: 'SET NULL' },
] as const;

const HISTORY_OF_INTEGRATION =
  'The integration that received it. An integration may be deleted while its incidents, alert events and deliveries stay as history: ' +
  'the id keeps naming it (the audit event integration.delete records its type and name), and its deliveries stay listable by it.';
const EVIDENCE_OF_INTEGRATION =
  'An integration the investigation read. Investigations keep their sources and tool runs as evidence after the integration is deleted, ' +
  'and an investigation reads the sources it chose when it started: an integration deleted meanwhile must not refuse its next tool run.';
const AUDIT_TRAIL = 'The append-only audit trail names actors and targets of every kind, deleted ones included, and its rows never change.';
const CAPABILITY = 'A capability of the catalog in code (`@svc/relays/protocol`), not a row.';

/**
 * Every `*_id` column of an Organization-owned table that no foreign key holds, and why. The
 * catalog check below finds every such column in the database: a new one fails it until it has
 * a key or a line here, and a line here fails it once a key holds the column.
 */
const UNKEYED_ID_COLUMNS: Record<string, string> = {
  'alert_events.delivery_id':
    'The delivery that brought the alert. Admission stores the alert events before it records their delivery (the record says what ' +
    'became of them, in the same statement), and the incidents library, which owns alert events, does not know the alerts library, ' +
    'which owns deliveries. Deliveries are never deleted.',
  'alert_events.integration_id': HISTORY_OF_INTEGRATION,
  'incidents.integration_id': HISTORY_OF_INTEGRATION,
  'webhook_deliveries.integration_id': HISTORY_OF_INTEGRATION,
  'change_events.integration_id': HISTORY_OF_INTEGRATION,
  'change_events.delivery_id':
    'The delivery that brought the change first, recorded in the same transaction by the alerts library, which owns deliveries and ' +
    'depends on the changes library (not the other way round). Deliveries are never deleted.',
  'change_events.investigation_id':
    'The investigation that saw the rollout in the metrics. The investigations library, which owns investigations, depends on the changes ' +
    'library (not the other way round), and a change stays on the timeline after its investigation is deleted with its incident.',
  'service_calls.integration_id': 'The Prometheus integration whose series showed the call last; the call stays known after the integration is deleted.',
  'service_calls.investigation_id':
    'The investigation that saw the call last. The investigations library, which owns investigations, depends on the changes library ' +
    '(not the other way round), and a call stays known after its investigation is deleted with its incident.',
  'investigation_sources.integration_id': EVIDENCE_OF_INTEGRATION,
  'tool_runs.integration_id': EVIDENCE_OF_INTEGRATION,
  'relay_capabilities.integration_id':
    "The integration as the relay's own configuration names it: a relay advertises what it is configured for, which may be an " +
    'integration created later, deleted, or never made.',
  'relay_jobs.integration_id':
    "The relay's name for the integration a job reads (matched against its advertised capabilities); jobs stay as the relay's " +
    'failure history after the integration is deleted.',
  'relay_capabilities.capability_id': CAPABILITY,
  'relay_jobs.capability_id': CAPABILITY,
  'relays.session_id': 'The live session the gateway drew an id for when the relay connected, not a row.',
  'tool_runs.hypothesis_id': 'The id the reasoner gave a hypothesis while it ran, not a row.',
  'chat_events.event_id': "The chat provider's event id, which its retries repeat: a record of another system.",
  'change_events.external_id':
    "The sender's id of the change (a GitHub deployment status, a GitLab deployment), which its retries repeat: a record of another system.",
  'conversation_messages.author_id': "Who wrote it: a user id, `token:<id>`, the chat provider's user id, or `service` for an answer; kept as written.",
  'audit_events.actor_id': AUDIT_TRAIL,
  'audit_events.target_id': AUDIT_TRAIL,
  'audit_events.request_id': "The HTTP request's X-Request-Id, not a row.",
  'outbox_messages.organization_id':
    'A job in transit, written in the transaction of the change that schedules it, whose own rows hold the Organization; the ' +
    'worker refuses a job without one.',
};

/** How PostgreSQL prints a foreign key (`pg_get_constraintdef`); NO ACTION is the default it leaves out. */
function definition(key: { column: string; parent: string; onDelete: string }, composite: boolean): string {
  const columns = composite ? `organization_id, ${key.column}` : key.column;
  const parentColumns = composite ? 'organization_id, id' : 'id';
  return `FOREIGN KEY (${columns}) REFERENCES ${key.parent}(${parentColumns})${key.onDelete === 'NO ACTION' ? '' : ` ON DELETE ${key.onDelete}`}`;
}

/** The tables that hold an Organization's data: every table with an organization_id column. */
const ORGANIZATION_OWNED = `SELECT c.oid, c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
  WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND a.attname = 'organization_id' AND NOT a.attisdropped`;

describe('composite foreign keys against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  // A parent of each kind in org-b; org-a has a parent of each kind too, so only the Organization differs.
  const parentIds = () => ({
    incidents: newId(),
    investigations: newId(),
    conversations: newId(),
    postmortems: newId(),
    relay_bootstrap_tokens: newId(),
    relays: newId(),
    integrations: newId(),
  });
  const parents = { 'org-a': parentIds(), 'org-b': parentIds() };
  const insertRelay = (org: string, id: string, token: string) =>
    dataSource.query(`INSERT INTO relays (organization_id, id, name, credential_hash, bootstrap_token_id) VALUES ($1, $2, 'r', $3, $4)`, [
      org,
      id,
      Buffer.from(id),
      token,
    ]);
  const insertToken = (org: string, id: string) =>
    dataSource.query(
      `INSERT INTO relay_bootstrap_tokens (organization_id, id, name, token_hash, created_by, expires_at, used_at) VALUES ($1, $2, 'r', $3, $4, now(), now())`,
      [org, id, Buffer.from(id), newId()],
    );

  /** The child row of `child` in `organizationId`, pointing at `parentId` (its other parents are its own Organization's). */
  const insertChild: Record<string, (organizationId: string, parentId: string) => Promise<unknown>> = {
    'investigations→incidents': (org, incident) =>
      dataSource.query(
        `INSERT INTO investigations (organization_id, id, incident_id, status, subject, window_from, window_until, opened_by) VALUES ($1, $2, $3, 'queued', 's', now(), now(), 'u')`,
        [org, newId(), incident],
      ),
    'incident_kubernetes_snapshots→incidents': (org, incident) =>
      dataSource.query(`INSERT INTO incident_kubernetes_snapshots (organization_id, id, incident_id, claimed_at) VALUES ($1, $2, $3, now())`, [
        org,
        newId(),
        incident,
      ]),
    'alert_events→incidents': (org, incident) =>
      dataSource.query(
        `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, phase_at)
       VALUES ($1, $2, $3, $4, $5, 'f', 'firing', '{}', '{}', now(), now())`,
        [org, newId(), incident, newId(), newId()],
      ),
    'incident_alerts→incidents': (org, incident) =>
      dataSource.query(`INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at) VALUES ($1, $2, $3, 'firing', now())`, [
        org,
        incident,
        newId(),
      ]),
    'tool_runs→investigations': (org, investigation) =>
      dataSource.query(
        `INSERT INTO tool_runs (organization_id, id, investigation_id, ordinal, tool, purpose, arguments, outcome, started_at) VALUES ($1, $2, $3, 1, 't', 'p', '{}', 'succeeded', now())`,
        [org, newId(), investigation],
      ),
    'investigation_sources→investigations': (org, investigation) =>
      dataSource.query(
        `INSERT INTO investigation_sources (organization_id, id, investigation_id, integration_id, rank, reason) VALUES ($1, $2, $3, $4, 1, 'r')`,
        [org, newId(), investigation, newId()],
      ),
    'investigation_activity→investigations': (org, investigation) =>
      dataSource.query(
        `INSERT INTO investigation_activity (organization_id, id, investigation_id, sequence, type, data) VALUES ($1, $2, $3, 1, 'started', '{}')`,
        [org, newId(), investigation],
      ),
    'conversations→incidents': (org, incident) =>
      dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, incident_id, created_by) VALUES ($1, $2, 's', 'web', $3, 'u')`, [
        org,
        newId(),
        incident,
      ]),
    'conversation_messages→conversations': (org, conversation) =>
      dataSource.query(
        `INSERT INTO conversation_messages (organization_id, id, conversation_id, sequence, role, text, author_id, author_name)
         VALUES ($1, $2, $3, (SELECT count(*) + 1 FROM conversation_messages), 'user', 't', 'u', 'U')`,
        [org, newId(), conversation],
      ),
    'conversation_messages→investigations': (org, investigation) =>
      dataSource.query(
        `INSERT INTO conversation_messages (organization_id, id, conversation_id, sequence, role, text, author_id, author_name, investigation_id)
         VALUES ($1, $2, $3, (SELECT count(*) + 1 FROM conversation_messages), 'user', 't', 'u', 'U', $4)`,
        [org, newId(), parents[org as 'org-a'].conversations, investigation],
      ),
    'conversation_turns→conversations': async (org, conversation) => {
      const investigation = newId();
      await dataSource.query(
        `INSERT INTO investigations (organization_id, id, status, subject, window_from, window_until, opened_by) VALUES ($1, $2, 'queued', 's', now(), now(), 'u')`,
        [org, investigation],
      );
      return dataSource.query(
        `INSERT INTO conversation_turns (organization_id, id, conversation_id, turn, investigation_id, message_sequence) VALUES ($1, $2, $3, 1, $4, 1)`,
        [org, newId(), conversation, investigation],
      );
    },
    'conversation_turns→investigations': (org, investigation) =>
      dataSource.query(
        `INSERT INTO conversation_turns (organization_id, id, conversation_id, turn, investigation_id, message_sequence) VALUES ($1, $2, $3, 2, $4, 1)`,
        [org, newId(), parents[org as 'org-a'].conversations, investigation],
      ),
    // A postmortem of a new incident of the Organization, since an incident has at most one.
    'postmortems→incidents': async (org, incident) => {
      const own = newId();
      await dataSource.query(
        `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, 'g', 'resolved', 't', '{}', now())`,
        [org, own, newId()],
      );
      const target = incident === parents[org as 'org-a'].incidents ? own : incident;
      return dataSource.query(`INSERT INTO postmortems (organization_id, id, incident_id, status, revision, document) VALUES ($1, $2, $3, 'draft', 1, '{}')`, [
        org,
        newId(),
        target,
      ]);
    },
    'postmortem_revisions→postmortems': (org, postmortem) =>
      dataSource.query(
        `INSERT INTO postmortem_revisions (organization_id, id, postmortem_id, revision, kind, document, created_by) VALUES ($1, $2, $3, 1, 'generated', '{}', 'u')`,
        [org, newId(), postmortem],
      ),
    'relays→relay_bootstrap_tokens': (org, token) => insertRelay(org, newId(), token),
    'relay_capabilities→relays': (org, relay) =>
      dataSource.query(
        `INSERT INTO relay_capabilities (organization_id, id, relay_id, integration_id, capability_id, capability_version) VALUES ($1, $2, $3, $4, 'prometheus.query', 1)`,
        [org, newId(), relay, newId()],
      ),
    'relay_session_conflicts→relays': (org, relay) =>
      dataSource.query(`INSERT INTO relay_session_conflicts (organization_id, id, relay_id) VALUES ($1, $2, $3)`, [org, newId(), relay]),
    'relay_jobs→relays': (org, relay) =>
      dataSource.query(
        `INSERT INTO relay_jobs (organization_id, id, relay_id, integration_id, capability_id, capability_version, source, request, status) VALUES ($1, $2, $3, $4, 'prometheus.query', 1, '/api/v1/query', '{}', 'failed')`,
        [org, newId(), relay, newId()],
      ),
    'chat_threads→conversations': (org, conversation) =>
      dataSource.query(
        `INSERT INTO chat_threads (organization_id, id, integration_id, channel, thread_ts, conversation_id) VALUES ($1, $2, $3, 'C1', $4, $5)`,
        [org, newId(), parents[org as 'org-a'].integrations, newId(), conversation],
      ),
    // A thread of a new conversation of the Organization, since a conversation has at most one.
    'chat_threads→integrations': async (org, integration) => {
      const conversation = newId();
      await dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ($1, $2, 's', 'chat', 'u')`, [
        org,
        conversation,
      ]);
      return dataSource.query(
        `INSERT INTO chat_threads (organization_id, id, integration_id, channel, thread_ts, conversation_id) VALUES ($1, $2, $3, 'C1', $4, $5)`,
        [org, newId(), integration, newId(), conversation],
      );
    },
    'chat_replies→conversations': (org, conversation) =>
      dataSource.query(
        `INSERT INTO chat_replies (organization_id, id, conversation_id, message_sequence, status) VALUES ($1, $2, $3, (SELECT count(*) + 1 FROM chat_replies), 'pending')`,
        [org, newId(), conversation],
      ),
    'chat_events→integrations': (org, integration) =>
      dataSource.query(`INSERT INTO chat_events (organization_id, id, integration_id, event_id) VALUES ($1, $2, $3, $4)`, [org, newId(), integration, newId()]),
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url, entities: [] })).initialize();
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-a', 'A'), ('org-b', 'B')`);
    for (const [org, ids] of Object.entries(parents)) {
      await dataSource.query(
        `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, 'g', 'open', 't', '{}', now())`,
        [org, ids.incidents, newId()],
      );
      await dataSource.query(
        `INSERT INTO investigations (organization_id, id, incident_id, status, subject, window_from, window_until, opened_by) VALUES ($1, $2, $3, 'queued', 's', now(), now(), 'u')`,
        [org, ids.investigations, ids.incidents],
      );
      await dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ($1, $2, 's', 'web', 'u')`, [
        org,
        ids.conversations,
      ]);
      await dataSource.query(`INSERT INTO postmortems (organization_id, id, incident_id, status, revision, document) VALUES ($1, $2, $3, 'draft', 1, '{}')`, [
        org,
        ids.postmortems,
        ids.incidents,
      ]);
      await dataSource.query(
        `INSERT INTO integrations (organization_id, id, type, name, enabled, config, created_by) VALUES ($1, $2, 'chat', 'c', true, '{}', $3)`,
        [org, ids.integrations, newId()],
      );
      await insertToken(org, ids.relay_bootstrap_tokens);
      await insertRelay(org, ids.relays, ids.relay_bootstrap_tokens);
    }
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('names a case for every composite foreign key of the schema', async () => {
    const keys = await dataSource.query<{ constraint: string }[]>(
      `SELECT conname AS constraint FROM pg_constraint WHERE contype = 'f' AND cardinality(conkey) > 1 ORDER BY conname`,
    );
    expect(keys.map((k) => k.constraint)).toEqual(COMPOSITE_KEYS.map((k) => k.constraint).sort());
  });

  for (const key of COMPOSITE_KEYS) {
    it(`${key.child} → ${key.parent}: a child cannot point at another Organization's parent (${key.constraint})`, async () => {
      // The same row under its own Organization's parent is accepted, so the refusal below is the key's alone.
      const insert = insertChild[`${key.child}→${key.parent}`];
      await expect(insert('org-a', parents['org-a'][key.parent])).resolves.toBeDefined();
      await expect(insert('org-a', parents['org-b'][key.parent])).rejects.toMatchObject({ code: '23503', constraint: key.constraint });
    });
  }

  it('every foreign key of an Organization-owned table is declared here, with what deleting its parent does', async () => {
    const keys = await dataSource.query<{ key: string }[]>(
      `SELECT owned.relname || ': ' || pg_get_constraintdef(k.oid) AS key
         FROM (${ORGANIZATION_OWNED}) owned JOIN pg_constraint k ON k.conrelid = owned.oid AND k.contype = 'f'`,
    );
    const declared = [
      ...COMPOSITE_KEYS.map((key) => `${key.child}: ${definition(key, true)}`),
      ...SINGLE_COLUMN_KEYS.map((key) => `${key.child}: ${definition(key, false)}`),
    ];
    expect(keys.map((k) => k.key).sort()).toEqual(declared.sort());
  });

  it('a key to an Organization-owned parent is composite: the Organization and the id, to the parent of the same Organization', async () => {
    const keys = await dataSource.query<{ key: string }[]>(
      `SELECT owned.relname || '(' || (SELECT string_agg(a.attname, ',' ORDER BY c.i) FROM unnest(k.conkey) WITH ORDINALITY c(n, i)
                                        JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.n)
              || ') → ' || k.confrelid::regclass::text
              || '(' || (SELECT string_agg(a.attname, ',' ORDER BY c.i) FROM unnest(k.confkey) WITH ORDINALITY c(n, i)
                          JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = c.n) || ')' AS key
         FROM (${ORGANIZATION_OWNED}) owned JOIN pg_constraint k ON k.conrelid = owned.oid AND k.contype = 'f'
        WHERE k.confrelid IN (SELECT oid FROM (${ORGANIZATION_OWNED}) parents)`,
    );
    expect(keys).toHaveLength(COMPOSITE_KEYS.length);
    expect(keys.map((k) => k.key).filter((key) => !/^\w+\(organization_id,\w+_id\) → \w+\(organization_id,id\)$/.test(key))).toEqual([]);
  });

  it('every *_id column of an Organization-owned table is held by a foreign key, or this file says why not', async () => {
    // Held: in a foreign key whose other columns cannot be null (a composite key with a null column holds nothing).
    const unheld = await dataSource.query<{ column: string }[]>(
      `SELECT owned.relname || '.' || a.attname AS column
         FROM (${ORGANIZATION_OWNED}) owned JOIN pg_attribute a ON a.attrelid = owned.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE a.attname LIKE '%\\_id'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k
                           WHERE k.conrelid = owned.oid AND k.contype = 'f' AND a.attnum = ANY (k.conkey)
                             AND NOT EXISTS (SELECT 1 FROM unnest(k.conkey) c(n) JOIN pg_attribute o ON o.attrelid = k.conrelid AND o.attnum = c.n
                                              WHERE c.n <> a.attnum AND NOT o.attnotnull))`,
    );
    expect(unheld.map((c) => c.column).sort()).toEqual(Object.keys(UNKEYED_ID_COLUMNS).sort());
    for (const reason of Object.values(UNKEYED_ID_COLUMNS)) expect(reason.length).toBeGreaterThan(20);
  });

  it('an investigation or a conversation without an incident still belongs to an Organization that exists', async () => {
    await expect(
      dataSource.query(
        `INSERT INTO investigations (organization_id, id, status, subject, window_from, window_until, opened_by) VALUES ('org-none', $1, 'queued', 's', now(), now(), 'u')`,
        [newId()],
      ),
    ).rejects.toMatchObject({ code: '23503', constraint: 'investigations_organization_fk' });
    await expect(
      dataSource.query(`INSERT INTO conversations (organization_id, id, subject, source, created_by) VALUES ('org-none', $1, 's', 'web', 'u')`, [newId()]),
    ).rejects.toMatchObject({ code: '23503', constraint: 'conversations_organization_fk' });
  });

  it("a deleted investigation leaves its conversation's messages in place, without the link", async () => {
    const investigation = newId();
    await dataSource.query(
      `INSERT INTO investigations (organization_id, id, status, subject, window_from, window_until, opened_by) VALUES ('org-a', $1, 'queued', 's', now(), now(), 'u')`,
      [investigation],
    );
    const message = newId();
    await dataSource.query(
      `INSERT INTO conversation_messages (organization_id, id, conversation_id, sequence, role, text, author_id, author_name, investigation_id)
       VALUES ('org-a', $1, $2, (SELECT count(*) + 1 FROM conversation_messages), 'user', 't', 'u', 'U', $3)`,
      [message, parents['org-a'].conversations, investigation],
    );
    await dataSource.query(`DELETE FROM investigations WHERE organization_id = 'org-a' AND id = $1`, [investigation]);
    expect(await dataSource.query(`SELECT organization_id, conversation_id, investigation_id FROM conversation_messages WHERE id = $1`, [message])).toEqual([
      { organization_id: 'org-a', conversation_id: parents['org-a'].conversations, investigation_id: null },
    ]);
  });

  it('the token a relay registered with cannot be deleted while the relay exists; its Organization can be', async () => {
    await expect(
      dataSource.query(`DELETE FROM relay_bootstrap_tokens WHERE organization_id = 'org-a' AND id = $1`, [parents['org-a'].relay_bootstrap_tokens]),
    ).rejects.toMatchObject({ code: '23503', constraint: 'relays_bootstrap_token_fk' });
    // The key does not stand in the way of deleting their Organization, which deletes both.
    const token = newId();
    await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ('org-gone', 'G')`);
    await insertToken('org-gone', token);
    await insertRelay('org-gone', newId(), token);
    await dataSource.query(`DELETE FROM organizations WHERE id = 'org-gone'`);
    expect(await dataSource.query(`SELECT id FROM relays WHERE organization_id = 'org-gone'`)).toEqual([]);
  });

  it("a postmortem's reviewer is a user; the review stays, without the person, if the user is deleted", async () => {
    const incident = newId();
    const postmortem = newId();
    await dataSource.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ('org-a', $1, $2, 'g', 'resolved', 't', '{}', now())`,
      [incident, newId()],
    );
    const review = (reviewer: string) =>
      dataSource.query(
        `INSERT INTO postmortems (organization_id, id, incident_id, status, revision, document, reviewed_at, reviewed_by_user_id)
         VALUES ('org-a', $1, $2, 'reviewed', 1, '{}', now(), $3)`,
        [postmortem, incident, reviewer],
      );
    await expect(review(newId())).rejects.toMatchObject({ code: '23503', constraint: 'postmortems_reviewer_fk' });
    const user = newId();
    await dataSource.query(`INSERT INTO users (id, email, name) VALUES ($1, $2, 'R')`, [user, `${user}@example.com`]);
    await review(user);
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [user]);
    expect(await dataSource.query(`SELECT status, reviewed_by_user_id FROM postmortems WHERE organization_id = 'org-a' AND id = $1`, [postmortem])).toEqual([
      { status: 'reviewed', reviewed_by_user_id: null },
    ]);
  });
});
