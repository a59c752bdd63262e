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
 * under another Organization's parent. Each such key is named here; the catalog check below makes
 * a new composite key without a case here fail.
 */
const COMPOSITE_KEYS = [
  { child: 'investigations', parent: 'incidents', constraint: 'FK_13d60b8bcceee028148ffffb5c6' },
  { child: 'alert_events', parent: 'incidents', constraint: 'FK_a8b353cca87d67b0388fb70c442' },
  { child: 'incident_alerts', parent: 'incidents', constraint: 'FK_a58ba7f9c31045bac2e313c1124' },
  { child: 'tool_runs', parent: 'investigations', constraint: 'FK_3d68dbb942ed0a5518de5baaaab' },
  { child: 'investigation_sources', parent: 'investigations', constraint: 'FK_16b9f22216134a1f90c95c0879d' },
  { child: 'investigation_activity', parent: 'investigations', constraint: 'FK_a2cffa18008245a70b68c39d9d8' },
  { child: 'conversations', parent: 'incidents', constraint: 'FK_2bab30f770b060fb18ad56fdcaf' },
  { child: 'conversation_messages', parent: 'conversations', constraint: 'FK_c126fa6b326040213b8ba26e359' },
  { child: 'conversation_turns', parent: 'conversations', constraint: 'FK_3429c97c06f1f0d4bef80cc3baf' },
  { child: 'conversation_turns', parent: 'investigations', constraint: 'FK_7d5c6016d3a45a95788f2556516' },
  { child: 'postmortems', parent: 'incidents', constraint: 'FK_36b21cf8b891833230bb8e9f34d' },
  { child: 'postmortem_revisions', parent: 'postmortems', constraint: 'FK_1e67d4ed3178c3fc0c3fe3f793f' },
  { child: 'relay_capabilities', parent: 'relays', constraint: 'FK_33366a27757f3bff9816c2fbe5b' },
  { child: 'relay_session_conflicts', parent: 'relays', constraint: 'FK_e23a17f6327cea1aa6bbde3db1b' },
  { child: 'relay_jobs', parent: 'relays', constraint: 'FK_1c99c6da96b8c16aa8047bcd21e' },
  { child: 'chat_threads', parent: 'conversations', constraint: 'FK_58d4277e00c7dfaca15c896835f' },
  { child: 'chat_threads', parent: 'integrations', constraint: 'FK_d292012687a3602af4519fbb5e3' },
  { child: 'chat_replies', parent: 'conversations', constraint: 'FK_397cc0b370454cb6859513fdb36' },
  { child: 'chat_events', parent: 'integrations', constraint: 'FK_ec91b5943cc605ffee1a49925dc' },
] as const;

describe('composite foreign keys against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  // A parent of each kind in org-b; org-a has a parent of each kind too, so only the Organization differs.
  const parents = {
    'org-a': { incidents: newId(), investigations: newId(), conversations: newId(), postmortems: newId(), relays: newId(), integrations: newId() },
    'org-b': { incidents: newId(), investigations: newId(), conversations: newId(), postmortems: newId(), relays: newId(), integrations: newId() },
  };

  /** The child row of `child` in `organizationId`, pointing at `parentId` (its other parents are its own Organization's). */
  const insertChild: Record<string, (organizationId: string, parentId: string) => Promise<unknown>> = {
    'investigations→incidents': (org, incident) =>
      dataSource.query(
        `INSERT INTO investigations (organization_id, id, incident_id, status, subject, window_from, window_until, opened_by) VALUES ($1, $2, $3, 'queued', 's', now(), now(), 'u')`,
        [org, newId(), incident],
      ),
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
      await dataSource.query(`INSERT INTO relays (organization_id, id, name, credential_hash, bootstrap_token_id) VALUES ($1, $2, 'r', $3, $4)`, [
        org,
        ids.relays,
        Buffer.from(ids.relays),
        newId(),
      ]);
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
});
