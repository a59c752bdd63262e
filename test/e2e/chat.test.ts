import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, PUBLIC_URL, startApi, TestApi } from '../support/api';
import { TestClock } from '../support/clock';
import { bootstrap, signedInMember, signInAdmin } from '../support/factories';
import { checkEachTestAgainstOpenApi } from '../support/openapi-conformance';
import { investigationEnded } from '../support/investigations';
import { OpenApiContract } from '../support/openapi-contract';
import { chatEvent, ScriptedChatProvider, signChatEvent } from '../support/scripted-chat-provider';
import { answer, ScriptedModelServer } from '../support/scripted-model-server';
import { until } from '../support/until';
import { startInProcessWorker, startWorker } from '../support/worker';

const SIGNING_SECRET = 'chat-signing-secret-0123456789';
const OAUTH_SIGNING_SECRET = 'oauth-app-signing-secret-0123456789';
const BOT_TOKEN = 'xoxb-manual-bot-token';
const WORKSPACE = { teamId: 'T0001', appId: 'A0001' };
const ORG = { 'x-svc-organization': 'acme' };

let tsCounter = 0;
/** A message `ts` as the provider writes them, unique in the run. */
const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String((tsCounter += 1)).padStart(6, '0')}`;

/**
 * Chat (decisions §9) against a scripted provider that speaks the Web API and OAuth wire formats,
 * with the real API pipeline and the real worker: signed events in, answers posted back in the
 * thread, retries and failures of the post, recovery, and the OAuth install. Every response a test
 * receives (the Admin's, and the webhook's through `send`) is checked against the OpenAPI document.
 * The worker runs in this process on a clock the test moves, so the waits between tries are read,
 * not waited for.
 */
describe('chat', () => {
  let provider: ScriptedChatProvider;
  let api: TestApi;
  let admin: Client;
  const clock = new TestClock();
  let worker: { close: () => Promise<void> } | undefined;
  let contract: OpenApiContract;
  let integrationId: string;
  const hook = () => {
    const client = new Client(api.baseUrl);
    contract.watch(client);
    return client;
  };
  const send = (body: unknown, options: { secret?: string; timestamp?: number; raw?: string } = {}) => {
    const raw = options.raw ?? JSON.stringify(body);
    return hook().request('POST', '/webhooks/v1/chat/events', {
      rawBody: raw,
      headers: signChatEvent(options.secret ?? SIGNING_SECRET, JSON.stringify(body), options.timestamp),
      origin: false,
    });
  };
  const query = async <T>(sql: string, params: unknown[] = []) => (await api.dataSource.query(sql, params)) as T[];
  const conversationOf = async (channel: string, threadTs: string) =>
    until(
      async () =>
        (await query<{ conversation_id: string }>('SELECT conversation_id FROM chat_threads WHERE channel = $1 AND thread_ts = $2', [channel, threadTs]))[0]
          ?.conversation_id,
      60_000,
      `the conversation of ${channel}:${threadTs}`,
    );
  const postsIn = (channel: string, threadTs: string, count: number) =>
    until(
      () => (provider.postsIn(channel, threadTs).length >= count ? provider.postsIn(channel, threadTs) : undefined),
      90_000,
      `${count} posts in ${channel}:${threadTs}`,
    );
  const replyState = (conversationId: string, sequence: number, status: string) =>
    until(
      async () =>
        (
          await query<{ status: string; failure: string | null; error: string | null; attempts: number }>(
            'SELECT status, failure, error, attempts FROM chat_replies WHERE conversation_id = $1 AND message_sequence = $2',
            [conversationId, sequence],
          )
        ).find((r) => r.status === status),
      90_000,
      `message ${sequence} of ${conversationId} to be ${status}`,
    );

  beforeAll(async () => {
    provider = await ScriptedChatProvider.start();
    api = await startApi({
      env: {
        SVC_CHAT_CLIENT_ID: provider.oauth.clientId,
        SVC_CHAT_CLIENT_SECRET: provider.oauth.clientSecret,
        SVC_CHAT_SIGNING_SECRET: OAUTH_SIGNING_SECRET,
        SVC_CHAT_AUTHORIZE_URL: provider.authorizeUrl,
        SVC_CHAT_API_BASE_URL: provider.apiBaseUrl,
      },
    });
    ({ admin } = await bootstrap(api));
    contract = await OpenApiContract.load(api.baseUrl);
    contract.watch(admin);
    const created = await admin.post('/api/v1/integrations', {
      type: 'chat',
      name: 'Team chat',
      config: { apiBaseUrl: provider.apiBaseUrl, ...WORKSPACE },
      credentials: { signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN },
    });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('credentials');
    expect(created.body).not.toHaveProperty('webhookSecret');
    integrationId = created.body.id;
    worker = await startInProcessWorker({ clock });
  }, 120_000);
  afterAll(async () => {
    clock.wakeAll();
    await worker?.close();
    await api?.close();
    await provider?.close();
  });
  checkEachTestAgainstOpenApi(() => contract);

  it('lists the chat type with its schemas, connected by OAuth; a chat integration needs its config and credentials, sealed', async () => {
    const types = await admin.get('/api/v1/integration-types?limit=200');
    const chat = types.body.items.find((t: { id: string }) => t.id === 'chat');
    expect(chat).toMatchObject({ connect: 'oauth', configSchema: { required: ['apiBaseUrl', 'teamId', 'appId'] } });
    const noCredentials = await admin.post('/api/v1/integrations', { type: 'chat', name: 'x', config: { apiBaseUrl: provider.apiBaseUrl, ...WORKSPACE } });
    expect(noCredentials.status).toBe(400);
    const badConfig = await admin.post('/api/v1/integrations', {
      type: 'chat',
      name: 'x',
      config: { apiBaseUrl: provider.apiBaseUrl },
      credentials: { signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN },
    });
    expect(badConfig.status).toBe(400);
    const [row] = await query<{ credentials_sealed: Buffer }>('SELECT credentials_sealed FROM integrations WHERE id = $1', [integrationId]);
    expect(row.credentials_sealed.toString('latin1')).not.toContain(BOT_TOKEN);
    expect(row.credentials_sealed.toString('latin1')).not.toContain(SIGNING_SECRET);
  });

  it('answers url_verification signed with a chat integration’s secret, and refuses it otherwise', async () => {
    const body = { token: 'unused', challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' };
    const ok = await send(body);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ challenge: body.challenge });
    const wrong = await send(body, { secret: 'not-the-secret-at-all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.reason).toBe('credential_rejected');
  });

  it('refuses every credential failure with the same 401: tampered body, wrong secret, stale or future timestamp, unknown workspace, no signature', async () => {
    const ts = nextTs();
    const body = chatEvent(WORKSPACE, { text: '<@UBOT> status?', channel: 'CREFUSE', ts });
    const tampered = JSON.stringify({ ...body, event: { ...body.event, text: '<@UBOT> something else' } });
    const answers = [
      await send(body, { raw: tampered }),
      await send(body, { secret: 'wrong-secret-0123456789' }),
      await send(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
      await send(body, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 }),
      await send({ ...body, team_id: 'TUNKNOWN' }),
      await hook().request('POST', '/webhooks/v1/chat/events', {
        rawBody: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
        origin: false,
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[0].body);
    }
    expect(answers[0].body.reason).toBe('credential_rejected');
    // Nothing was taken in.
    expect(await query('SELECT 1 FROM chat_events WHERE event_id = $1', [body.event_id])).toEqual([]);
    // Within five minutes either way is accepted.
    const recent = await send(chatEvent(WORKSPACE, { type: 'reaction_added', text: 'x', channel: 'CREFUSE', ts }), {
      timestamp: Math.floor(Date.now() / 1000) - 4 * 60,
    });
    expect(recent.status).toBe(200);
    expect(recent.body).toEqual({});
  });

  it('answers a mention in its thread with the answer and a link to the investigation; a reply in the thread is turn 2 with the thread as context', async () => {
    const ts = nextTs();
    const mention = chatEvent(WORKSPACE, { user: 'UASK', text: '<@UBOT> What happened in the last hour?', channel: 'COPS', ts });
    const ack = await send(mention);
    expect(ack.status).toBe(200);
    expect(ack.body).toEqual({});

    const [first] = await postsIn('COPS', ts, 1);
    expect(first.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const conversationId = await conversationOf('COPS', ts);
    const thread = await admin.get(`/api/v1/conversations/${conversationId}`);
    expect(thread.body).toMatchObject({ source: 'chat', createdBy: 'chat:UASK', subject: 'What happened in the last hour?' });
    expect(thread.body.messages[0]).toMatchObject({
      sequence: 1,
      role: 'user',
      authorId: 'UASK',
      sourceReference: `COPS:${ts}`,
      text: 'What happened in the last hour?',
    });
    expect(thread.body.messages[0]).not.toHaveProperty('authorName');
    const answer = thread.body.messages[1];
    expect(answer.role).toBe('assistant');
    expect(first.body.text).toBe(`${answer.text}\n\n<${PUBLIC_URL}/investigations/${answer.investigationId}|Open the investigation>`);
    expect((await admin.get('/api/v1/conversations?source=chat')).body.items.map((c: { id: string }) => c.id)).toContain(conversationId);
    await replyState(conversationId, 1, 'posted');

    // The app's own reply comes back as a bot message in the thread: ignored.
    const ownReply = chatEvent(WORKSPACE, {
      type: 'message',
      text: first.body.text!,
      channel: 'COPS',
      ts: nextTs(),
      thread_ts: ts,
      bot_id: 'BBOT',
      subtype: 'bot_message',
    });
    expect((await send(ownReply)).status).toBe(200);
    const followUp = chatEvent(WORKSPACE, { type: 'message', user: 'UASK', text: 'And which incidents opened?', channel: 'COPS', ts: nextTs(), thread_ts: ts });
    expect((await send(followUp)).status).toBe(200);
    const posts = await postsIn('COPS', ts, 2);
    const turns = await admin.get(`/api/v1/conversations/${conversationId}/turns`, { headers: ORG });
    expect(turns.body.turns.map((t: { turn: number }) => t.turn)).toEqual([1, 2]);
    const messages = (await admin.get(`/api/v1/conversations/${conversationId}`)).body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(posts[1].body.text).toContain(messages[3].text);
    // Turn 2's reasoner was given the thread so far: the question and the answer of turn 1.
    const [context] = await query<{ conversation: { messages: { sequence: number; text: string }[]; turns: { turn: number }[] } }>(
      'SELECT conversation FROM investigations WHERE id = $1',
      [turns.body.turns[1].investigationId],
    );
    expect(context.conversation.messages.map((m) => m.sequence)).toEqual([1, 2]);
    expect(context.conversation.messages[0].text).toBe('What happened in the last hour?');
    expect(context.conversation.turns.map((t) => t.turn)).toEqual([1]);
    // The app's own reply was not taken in.
    expect(await query('SELECT 1 FROM chat_events WHERE event_id = $1', [ownReply.event_id])).toEqual([]);
  }, 180_000);

  it('takes in a repeated event_id once, however often and however concurrently it is delivered', async () => {
    const ts = nextTs();
    const mention = chatEvent(WORKSPACE, { text: '<@UBOT> anything firing?', channel: 'CDUP', ts });
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(mention)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    // The provider retries with a new timestamp and signature: still the same event.
    const retried = await send(mention, { timestamp: Number(signChatEvent(SIGNING_SECRET, '')['x-svc-request-timestamp']) - 30 });
    expect(retried.status).toBe(200);
    await postsIn('CDUP', ts, 1);
    const conversationId = await conversationOf('CDUP', ts);
    expect(await query('SELECT 1 FROM chat_events WHERE event_id = $1', [mention.event_id])).toHaveLength(1);
    const messages = (await admin.get(`/api/v1/conversations/${conversationId}`)).body.messages;
    expect(messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
    // A later message in the thread is posted after the only answer to the repeated one.
    await send(chatEvent(WORKSPACE, { type: 'message', text: 'thanks, and now?', channel: 'CDUP', ts: nextTs(), thread_ts: ts }));
    await postsIn('CDUP', ts, 2);
    expect(provider.postsIn('CDUP', ts)).toHaveLength(2);
  }, 180_000);

  it('ignores what is not for it: a channel message outside a thread, a reply in a thread it is not in, other event kinds, bots', async () => {
    const ignored = [
      chatEvent(WORKSPACE, { type: 'message', text: 'lunch?', channel: 'CIGN', ts: nextTs() }),
      chatEvent(WORKSPACE, { type: 'message', text: 'in a thread of people', channel: 'CIGN', ts: nextTs(), thread_ts: '1600000000.000100' }),
      chatEvent(WORKSPACE, { type: 'reaction_added', text: '', channel: 'CIGN', ts: nextTs() }),
      chatEvent(WORKSPACE, { text: '<@UBOT> from a bot', channel: 'CIGN', ts: nextTs(), bot_id: 'BOTHER' }),
    ];
    for (const event of ignored) {
      const res = await send(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    expect(await query('SELECT 1 FROM chat_events WHERE event_id = ANY($1)', [ignored.map((e) => e.event_id)])).toEqual([]);
    // A body that is not a JSON object is 400 (decisions §4), never 5xx.
    expect((await send({ type: 'event_callback', ...WORKSPACE }, { raw: '{"type":' })).status).toBe(400);
    expect((await send({ x: 1 }, { raw: '[1, 2]' })).status).toBe(400);
  });

  it('retries 429 after Retry-After and 5xx with backoff, then posts', async () => {
    provider.answerNextPosts('CRETRY', { kind: 'status', status: 429, headers: { 'retry-after': '7' } }, { kind: 'status', status: 503 });
    const ts = nextTs();
    await send(chatEvent(WORKSPACE, { text: '<@UBOT> is checkout ok?', channel: 'CRETRY', ts }));
    const waiting = () => until(() => (clock.pendingSleeps().length > 0 ? clock.pendingSleeps() : undefined), 90_000, 'the poster waiting to try again');
    // Answered 429: the poster waits the seven seconds Retry-After names, and tries again only after them.
    expect(await waiting()).toEqual([7_000]);
    expect(provider.postsIn('CRETRY', ts)).toHaveLength(1);
    clock.advance(6_999);
    expect(clock.pendingSleeps()).toEqual([7_000]);
    expect(provider.postsIn('CRETRY', ts)).toHaveLength(1);
    clock.advance(1);
    // Answered 503 on the second try: the backoff, doubled from one second at each try.
    expect(await waiting()).toEqual([2_000]);
    expect(provider.postsIn('CRETRY', ts)).toHaveLength(2);
    clock.advance(1_999);
    expect(clock.pendingSleeps()).toEqual([2_000]);
    clock.advance(1);
    const posts = await postsIn('CRETRY', ts, 3);
    expect(posts.map((p) => p.answered.kind)).toEqual(['status', 'status', 'ok']);
    const conversationId = await conversationOf('CRETRY', ts);
    expect(await replyState(conversationId, 1, 'posted')).toMatchObject({ attempts: 3, failure: null });
  }, 180_000);

  it('records a reply refused with ok:false invalid_auth as failed; an Admin recovers it, audited; 409 when there is nothing to recover', async () => {
    provider.answerNextPosts('CRECOVER', { kind: 'error', error: 'invalid_auth' });
    const ts = nextTs();
    await send(chatEvent(WORKSPACE, { text: '<@UBOT> what fired?', channel: 'CRECOVER', ts }));
    const conversationId = await conversationOf('CRECOVER', ts);
    const failed = await replyState(conversationId, 1, 'failed');
    // Not transient: tried once.
    expect(failed).toMatchObject({ failure: 'post', attempts: 1, error: 'chat.postMessage answered HTTP 200 ok:false invalid_auth' });
    expect(provider.postsIn('CRECOVER', ts)).toHaveLength(1);

    const path = `/api/v1/chat/conversations/${conversationId}/messages/1/recover`;
    const editor = (await signedInMember(api, 'acme', 'editor')).client;
    expect((await editor.post(path)).status).toBe(403);
    expect((await admin.post(`/api/v1/chat/conversations/${conversationId}/messages/2/recover`)).status).toBe(404);
    expect((await admin.post(`/api/v1/chat/conversations/${conversationId}/messages/0/recover`)).status).toBe(400);

    const recovered = await admin.post(path);
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ message: { sequence: 1, role: 'user', sourceReference: `CRECOVER:${ts}` }, turn: { turn: 1 }, queued: true });
    const posts = await postsIn('CRECOVER', ts, 2);
    expect(posts[1].answered.kind).toBe('ok');
    await replyState(conversationId, 1, 'posted');
    const again = await admin.post(path);
    expect(again.status).toBe(409);
    const audit = await admin.get('/api/v1/audit-events?limit=200');
    expect(audit.body.events.find((e: { action: string; targetId: string }) => e.action === 'chat.recover' && e.targetId === conversationId)).toMatchObject({
      actorKind: 'user',
      detail: { sequence: 1, failure: 'post' },
    });
  }, 180_000);

  it('recovery: 404 for a web conversation and across Organizations', async () => {
    const web = await admin.post('/api/v1/conversations', { subject: 'Console', message: 'hello' });
    expect((await admin.post(`/api/v1/chat/conversations/${web.body.id}/messages/1/recover`)).status).toBe(404);
    const ts = nextTs();
    expect((await send(chatEvent(WORKSPACE, { text: '<@UBOT> what changed?', channel: 'CFOREIGN', ts }))).status).toBe(200);
    const chatConversation = await conversationOf('CFOREIGN', ts);
    // Both turns end here, not in a later test that restarts the worker.
    await investigationEnded(admin, web.body.turn.investigationId);
    await replyState(chatConversation, 1, 'posted');
    expect((await admin.get(`/api/v1/conversations/${chatConversation}`)).status).toBe(200);
    expect((await admin.post('/api/v1/organizations', { id: 'chat-other', displayName: 'Other' })).status).toBe(201);
    const foreign = await admin.post(`/api/v1/chat/conversations/${chatConversation}/messages/1/recover`, undefined, {
      headers: { 'x-svc-organization': 'chat-other' },
    });
    expect(foreign.status).toBe(404);
    expect((await admin.get(`/api/v1/conversations/${chatConversation}`, { headers: { 'x-svc-organization': 'chat-other' } })).status).toBe(404);
  }, 180_000);

  describe('OAuth connect', () => {
    it('installs the app: the state is bound to the session and Organization, the code is exchanged and the bot token sealed', async () => {
      const started = await admin.post('/api/v1/integration-types/chat/connect');
      expect(started.status).toBe(200);
      const url = new URL(started.body.authorizationUrl);
      expect(`${url.origin}${url.pathname}`).toBe(provider.authorizeUrl);
      expect(url.searchParams.get('client_id')).toBe(provider.oauth.clientId);
      expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/v1/integrations/connect/callback`);
      expect(url.searchParams.get('scope')).toContain('chat:write');
      const state = url.searchParams.get('state')!;

      // Another session of the same Admin, a tampered state, another Organization: refused.
      const { code, botToken } = provider.issueCode();
      const callback = (s: string, c = code) => `/api/v1/integrations/connect/callback?code=${encodeURIComponent(c)}&state=${encodeURIComponent(s)}`;
      const other = await signInAdmin(api);
      contract.watch(other);
      expect((await other.get(callback(state))).status).toBe(400);
      expect((await admin.get(callback(`${state.slice(0, -2)}xx`))).status).toBe(400);
      expect((await admin.post('/api/v1/organizations', { id: 'chat-install-other', displayName: 'Other' })).status).toBe(201);
      expect((await admin.get(callback(state), { headers: { 'x-svc-organization': 'chat-install-other' } })).status).toBe(400);
      expect((await admin.get(callback(state, 'code-never-issued'))).status).toBe(400);
      expect(provider.exchanges.at(-1)).toMatchObject({
        code: 'code-never-issued',
        client_id: provider.oauth.clientId,
        client_secret: provider.oauth.clientSecret,
      });

      const done = await admin.get(callback(state));
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({
        type: 'chat',
        name: `Chat: ${provider.oauth.teamName}`,
        enabled: true,
        hasCredentials: true,
        config: { apiBaseUrl: provider.apiBaseUrl, teamId: provider.oauth.teamId, appId: provider.oauth.appId },
      });
      expect(JSON.stringify(done.body)).not.toContain(botToken);

      // The installed workspace's events are signed with the app's signing secret; replies use the new bot token.
      const ts = nextTs();
      const workspace = { teamId: provider.oauth.teamId, appId: provider.oauth.appId };
      expect((await send(chatEvent(workspace, { text: '<@UBOT> hello', channel: 'COAUTH', ts }), { secret: OAUTH_SIGNING_SECRET })).status).toBe(200);
      const [post] = await postsIn('COAUTH', ts, 1);
      expect(post.headers.authorization).toBe(`Bearer ${botToken}`);
    }, 120_000);

    it('keeps the clear 400 for types without OAuth, 404 for unknown types, and refuses API tokens', async () => {
      const generic = await admin.post('/api/v1/integration-types/generic/connect');
      expect(generic.status).toBe(400);
      expect(generic.body.error).toMatch(/do not connect by OAuth/);
      expect((await admin.post('/api/v1/integration-types/nope/connect')).status).toBe(404);
      const token = await admin.post('/api/v1/api-tokens', { name: 'connect', role: 'admin', expiresAt: new Date(Date.now() + 86400_000).toISOString() });
      const byToken = await new Client(api.baseUrl).request('POST', '/api/v1/integration-types/chat/connect', {
        headers: { authorization: `Bearer ${token.body.token}`, ...ORG },
        origin: false,
      });
      expect(byToken.status).toBe(403);
      const noState = await admin.get('/api/v1/integrations/connect/callback?code=abc');
      expect(noState.status).toBe(400);
    });
  });

  it('posts the notice of a failed turn and records it failed; recovery gives the message a new turn, whose answer is posted', async () => {
    // A language model that hands in an invalid conclusion twice fails the turn.
    const model = await ScriptedModelServer.start();
    const invalid = {
      conclusionStatus: 'answer_only',
      summary: 'Cites a run that does not exist.',
      impact: { summary: 'None.', runRefs: [7] },
      findings: [],
      hypotheses: [],
      actions: [],
      limitations: [],
    };
    model.script(answer.conclude(invalid), answer.conclude(invalid));
    await worker?.close();
    worker = await startWorker({ SVC_LLM_PROVIDER: 'openai-compatible', SVC_LLM_BASE_URL: model.baseUrl, SVC_LLM_API_KEY: 'k', SVC_LLM_MODEL: 'scripted' });
    const ts = nextTs();
    let conversationId: string;
    try {
      await send(chatEvent(WORKSPACE, { text: '<@UBOT> why is checkout so slow?', channel: 'CFAILED', ts }));
      conversationId = await conversationOf('CFAILED', ts);
      const failed = await replyState(conversationId, 1, 'failed');
      expect(failed.failure).toBe('turn');
      const [notice] = provider.postsIn('CFAILED', ts);
      expect(notice.body.text).toMatch(/^The turn failed: /);
    } finally {
      await worker.close();
      await model.close();
      worker = await startInProcessWorker({ clock });
    }
    const before = (await admin.get(`/api/v1/conversations/${conversationId}/turns`, { headers: ORG })).body.turns;
    expect(before.map((t: { status: string }) => t.status)).toEqual(['failed']);
    const recovered = await admin.post(`/api/v1/chat/conversations/${conversationId}/messages/1/recover`);
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ message: { sequence: 1 }, turn: { turn: 2, status: 'queued' }, queued: true });
    expect(recovered.body.turn.investigationId).not.toBe(before[0].investigationId);
    expect(recovered.body.message.investigationId).toBe(recovered.body.turn.investigationId);
    await replyState(conversationId, 1, 'posted');
    const posts = provider.postsIn('CFAILED', ts);
    expect(posts).toHaveLength(2);
    expect(posts[1].body.text).toContain(`/investigations/${recovered.body.turn.investigationId}|`);
    expect((await admin.post(`/api/v1/chat/conversations/${conversationId}/messages/1/recover`)).status).toBe(409);
  }, 240_000);
});

/** Admission pressure: past SVC_CHAT_MAX_IN_FLIGHT requests in flight, the provider is told to retry (429 with Retry-After). */
describe('chat admission pressure', () => {
  let api: TestApi;
  let contract: OpenApiContract;

  beforeAll(async () => {
    api = await startApi({ env: { SVC_CHAT_MAX_IN_FLIGHT: '1' } });
    contract = await OpenApiContract.load(api.baseUrl);
  }, 120_000);
  afterAll(() => api?.close());
  checkEachTestAgainstOpenApi(() => contract);

  it('answers 429 with Retry-After while a request holds the one slot, and takes requests again once it ends', async () => {
    const { port } = new URL(api.baseUrl);
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c' });
    // A request whose body has not all arrived holds its slot.
    const held = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/webhooks/v1/chat/events',
      headers: { ...signChatEvent(SIGNING_SECRET, body), 'content-length': String(body.length) },
    });
    const heldAnswer = new Promise<number>((resolve, reject) => {
      held.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      held.on('error', reject);
    });
    held.write(body.slice(0, 5));
    held.flushHeaders();
    const client = new Client(api.baseUrl);
    contract.watch(client);
    const pressure = await until(
      async () => {
        const res = await client.request('POST', '/webhooks/v1/chat/events', { rawBody: body, headers: signChatEvent(SIGNING_SECRET, body), origin: false });
        return res.status === 429 ? res : undefined;
      },
      30_000,
      'a 429 while the slot is held',
    );
    expect(pressure.headers.get('retry-after')).toBe('1');
    expect(pressure.body.error).toMatch(/retry/i);
    held.end(body.slice(5));
    // No chat integration here: the held request is refused like any unknown signature.
    expect(await heldAnswer).toBe(401);
    const after = await client.request('POST', '/webhooks/v1/chat/events', { rawBody: body, headers: signChatEvent(SIGNING_SECRET, body), origin: false });
    expect(after.status).toBe(401);
  });
});
