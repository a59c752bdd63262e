import { DataSource } from 'typeorm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Conclusion, InvestigationsRepository, ToolRunsRepository } from '@svc/investigations';
import { dataSourceOptions, newId, Timestamp } from '@svc/platform';
import { createTestDatabase } from '../support/databases';
import { lockable, organizationRows } from '../support/tenancy';

const A = 'org-a';
const B = 'org-b';
const TABLES = ['investigations', 'tool_runs', 'investigation_sources'];
const T1 = Timestamp.parse('2026-11-20T10:00:00Z')!;

/**
 * Both Organizations hold an incident and an investigation with the same ids, each with its own
 * claim, sequence and tool runs (B has more); only B has investigation bOnly. Every statement
 * runs for A and must neither read, lock nor change a row of B. Every test starts from these rows
 * as they are described (written anew before each test), whatever the tests before it changed.
 */
describe('InvestigationsRepository and ToolRunsRepository keep to one Organization', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  let investigations: InvestigationsRepository;
  let toolRuns: ToolRunsRepository;
  const incidentId = newId();
  const investigationId = newId();
  const bOnly = newId();
  const turnId = newId();
  const integrationId = newId();
  const claims: Record<string, string> = { [A]: newId(), [B]: newId() };
  let before: Record<string, unknown[]>;

  async function investigation(org: string, id: string, lastSequence: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO investigations (organization_id, id, incident_id, status, subject, window_from, window_until, opened_by, claim, last_sequence)
      VALUES ($1, $2, $3, 'investigating', 'S', $4, $4, 'u', $5, $6)`,
      [org, id, incidentId, T1, claims[org], lastSequence],
    );
  }
  async function run(org: string, ordinal: number): Promise<void> {
    await dataSource.query(
      `INSERT INTO tool_runs (organization_id, id, investigation_id, ordinal, tool, purpose, arguments, outcome, started_at)
      VALUES ($1, $2, $3, $4, 't', 'p', '{}', 'running', $5)`,
      [org, newId(), investigationId, ordinal, T1],
    );
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource(dataSourceOptions({ url: db.url })).initialize();
    investigations = new InvestigationsRepository(dataSource);
    toolRuns = new ToolRunsRepository(dataSource);
    for (const org of [B, A]) await dataSource.query(`INSERT INTO organizations (id, display_name) VALUES ($1, $1)`, [org]);
  });
  beforeEach(async () => {
    for (const table of ['tool_runs', 'investigation_sources', 'investigation_activity', 'investigations', 'incidents'])
      await dataSource.query(`DELETE FROM ${table}`);
    // B first: a statement that lost its Organization condition would meet B's rows first.
    for (const org of [B, A]) {
      await dataSource.query(
        `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at) VALUES ($1, $2, $3, 'g', 'open', 'T', '{}', $4)`,
        [org, incidentId, integrationId, T1],
      );
      await investigation(org, investigationId, org === B ? 10 : 0);
      for (let ordinal = 1; ordinal <= (org === B ? 5 : 1); ordinal++) await run(org, ordinal);
      await dataSource.query(
        `INSERT INTO investigation_sources (organization_id, id, investigation_id, integration_id, rank, reason) VALUES ($1, $2, $3, $4, 1, 'r')`,
        [org, newId(), investigationId, org === B ? integrationId : newId()],
      );
    }
    await investigation(B, bOnly, 0);
    // A queued conversation turn with the same id in both Organizations, each with its own end job.
    for (const org of [B, A])
      await dataSource.query(
        `INSERT INTO investigations (organization_id, id, status, subject, window_from, window_until, opened_by, end_job)
        VALUES ($1, $2, 'queued', 'S', $3, $3, 'u', $4::jsonb)`,
        [org, turnId, T1, JSON.stringify({ queue: 'conversations', name: 'conversation.turn-ended', payload: { of: org } })],
      );
    before = await organizationRows(dataSource, B, TABLES);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });
  const bUnchanged = async (): Promise<void> => expect(await organizationRows(dataSource, B, TABLES)).toEqual(before);

  it("reads and locks only the Organization's investigation", async () => {
    await dataSource.transaction(async (manager) => {
      expect(await investigations.claimState(A, bOnly, { lock: true }, manager)).toBeUndefined();
      expect(await investigations.claimState(A, investigationId, { lock: true }, manager)).toEqual({ status: 'investigating', claim: claims[A] });
      expect(await investigations.lockStatus(A, bOnly, manager)).toBeUndefined();
      expect(await investigations.lockStatus(A, investigationId, manager)).toBe('investigating');
      expect(await lockable(dataSource, 'investigations', B)).toBe(true);
    });
    expect(await investigations.claimState(A, investigationId, { lock: false })).toEqual({ status: 'investigating', claim: claims[A] });
    await bUnchanged();
  });

  it("the activity sequence is the Organization's own", async () => {
    await dataSource.transaction(async (manager) => {
      expect(await investigations.nextActivitySequence(A, investigationId, manager)).toBe(1);
      await investigations.notifyActivity(A, investigationId, 1, manager);
      expect(await lockable(dataSource, 'investigations', B)).toBe(true);
    });
    await bUnchanged();
  });

  it("claiming, hypotheses, conclusion, failure, cancellation and sources change only the Organization's rows", async () => {
    const conclusion: Conclusion = {
      conclusionStatus: 'inconclusive',
      summary: 'S',
      impact: { summary: 'I', runRefs: [] },
      findings: [],
      hypotheses: [],
      actions: [],
      limitations: [],
    };
    await investigations.markClaimed(A, investigationId, newId(), 'r', dataSource.manager);
    await investigations.storeHypotheses(A, investigationId, []);
    await investigations.storeConclusion(A, investigationId, {
      status: 'partial',
      conclusion,
      stoppedBy: 'wall_clock',
    });
    await investigations.storeFailure(A, investigationId, 'E');
    await investigations.addUsage(A, investigationId, { inputTokens: 1, outputTokens: 2 });
    await investigations.addUsage(A, investigationId, { inputTokens: 10, outputTokens: 20 });
    const [usage] = await dataSource.query('SELECT input_tokens, output_tokens FROM investigations WHERE organization_id = $1 AND id = $2', [
      A,
      investigationId,
    ]);
    expect(usage).toEqual({ input_tokens: 11, output_tokens: 22 });
    await investigations.markCancelled(A, investigationId);
    await investigations.addSource(A, { id: newId(), investigationId, integrationId, rank: 2, reason: 'r' });
    const sources = await organizationRows(dataSource, A, ['investigation_sources']);
    expect(sources.investigation_sources).toHaveLength(2);
    await bUnchanged();
  });

  it("a turn's context and end job are the Organization's own", async () => {
    const context = { conversationId: newId(), turn: 1, messageSequence: 1, messages: [], turns: [], droppedMessageSequences: [], droppedTurns: [] };
    expect(await investigations.endJobOf(A, turnId)).toEqual({ queue: 'conversations', name: 'conversation.turn-ended', payload: { of: A } });
    expect(await investigations.endJobOf(A, bOnly)).toBeNull();
    expect(await investigations.startTurn(A, bOnly, context)).toBe(false);
    expect(await investigations.startTurn(A, turnId, context)).toBe(true);
    expect(await investigations.startTurn(A, turnId, context)).toBe(false);
    const [row] = await dataSource.query('SELECT conversation FROM investigations WHERE organization_id = $1 AND id = $2', [A, turnId]);
    expect(row.conversation).toEqual(context);
    await bUnchanged();
  });

  it('tool runs are numbered, started, refused, finished and failed within the Organization only', async () => {
    expect(await toolRuns.nextOrdinal(A, investigationId)).toBe(2);
    await toolRuns.insertRunning(A, {
      id: newId(),
      investigationId,
      ordinal: 2,
      tool: 't',
      integrationId: null,
      purpose: 'p',
      hypothesisId: null,
      arguments: {},
    });
    await toolRuns.insertRefused(A, {
      id: newId(),
      investigationId,
      ordinal: 3,
      tool: 't',
      purpose: 'p',
      hypothesisId: null,
      arguments: {},
      summary: 'S',
      error: 'E',
    });
    await toolRuns.finish(A, investigationId, 1, {
      outcome: 'succeeded',
      summary: 'S',
      sources: [],
      truncated: false,
      error: null,
      output: null,
      window: null,
    });
    await toolRuns.failRunning(A, investigationId, 'Stopped');
    const runs = (await organizationRows(dataSource, A, ['tool_runs'])).tool_runs as { ordinal: number; outcome: string }[];
    expect(runs.map((r) => [r.ordinal, r.outcome]).sort()).toEqual([
      [1, 'succeeded'],
      [2, 'failed'],
      [3, 'failed'],
    ]);
    await bUnchanged();
  });
});
