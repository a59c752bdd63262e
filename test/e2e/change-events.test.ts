import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { signedInMember, useBootstrappedApi } from '../support/factories';
import { checkEachTestAgainstOpenApi } from '../support/openapi-conformance';
import { OpenApiContract } from '../support/openapi-contract';

const REJECTED = { error: 'Unknown integration or wrong webhook credential', reason: 'credential_rejected' };

/** The documented bodies of each sender, as small as they come (the parsers' specs hold the full ones). */
const githubDeploymentStatus = (id: number, state = 'success') => ({
  action: 'created',
  deployment_status: {
    id,
    state,
    environment: 'production',
    created_at: '2026-11-20T09:58:00Z',
    updated_at: '2026-11-20T09:58:00Z',
    target_url: 'https://ci.example.com/runs/77',
    creator: { login: 'octocat' },
  },
  deployment: { id: 9001, sha: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', ref: 'main', environment: 'production', creator: { login: 'octocat' }, payload: {} },
  repository: { name: 'checkout', full_name: 'acme/checkout', html_url: 'https://github.com/acme/checkout', default_branch: 'main' },
  sender: { login: 'octocat' },
});

const gitlabDeployment = {
  object_kind: 'deployment',
  status: 'success',
  status_changed_at: '2026-11-20 10:05:00 +0000',
  deployment_id: 15,
  deployable_id: 796,
  deployable_url: 'https://gitlab.example.com/acme/payments/-/jobs/796',
  environment: 'production',
  project: { id: 30, name: 'payments', path_with_namespace: 'acme/payments', web_url: 'https://gitlab.example.com/acme/payments', default_branch: 'main' },
  short_sha: '279484c0',
  user: { name: 'Administrator', username: 'root' },
  commit_url: 'https://gitlab.example.com/acme/payments/-/commit/279484c09fbe69ededfced8c1bb6e6d24616b468',
  commit_title: 'Add new file',
};

const pagerdutyChange = {
  routing_key: 'ignored-by-the-service',
  payload: {
    summary: 'Raised the checkout connection pool to 50',
    timestamp: '2026-11-20T10:10:00Z',
    source: 'config-service',
    custom_details: { service: 'checkout', kind: 'config', author: 'grace' },
  },
  links: [{ href: 'https://config.example.com/changes/42', text: 'Change 42' }],
};

const argocdNotification = {
  argocd: {
    app: 'inventory',
    project: 'default',
    namespace: 'shop',
    revision: '5f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6',
    phase: 'Succeeded',
    startedAt: '2026-11-20T10:14:00Z',
    finishedAt: '2026-11-20T10:15:00Z',
    initiatedBy: 'alice',
    repoURL: 'https://github.com/acme/deploy',
    url: 'https://argocd.example.com/applications/inventory',
    health: 'Healthy',
    message: 'successfully synced (all tasks run)',
    previousRevision: '',
  },
};

const fluxEvent = {
  involvedObject: {
    kind: 'Kustomization',
    namespace: 'flux-system',
    name: 'frontend',
    uid: 'cc4d0095-83f4-4f08-98f2-d2e9f3731fb9',
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  },
  severity: 'info',
  timestamp: '2026-11-20T10:20:00Z',
  message: 'Deployment/shop/frontend configured',
  reason: 'ReconciliationSucceeded',
  metadata: { revision: 'main@sha1:0a1b2c3d4e5f60718293a4b5c6d7e8f901234567' },
  reportingController: 'kustomize-controller',
  reportingInstance: 'kustomize-controller-7f5d6c9b8-x2x4z',
};

const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('change events', () => {
  const ctx = useBootstrappedApi();
  let contract: OpenApiContract;
  checkEachTestAgainstOpenApi(() => contract);
  let sender: Client;
  let changes: { id: string; secret: string };
  let generic: { id: string; secret: string };

  const post = (integration: { id: string; secret: string }, body: unknown, headers: Record<string, string> = {}) =>
    sender.request('POST', `/webhooks/v1/integrations/${integration.id}/change-events`, {
      body,
      headers: { 'x-svc-token': integration.secret, ...headers },
      origin: false,
    });

  /** A body signed as GitHub signs it (no token header). */
  const postSigned = (integration: { id: string; secret: string }, event: string, body: unknown, header = 'x-hub-signature-256') => {
    const raw = JSON.stringify(body);
    return sender.request('POST', `/webhooks/v1/integrations/${integration.id}/change-events`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-github-event': event, [header]: sign(integration.secret, raw) },
      origin: false,
    });
  };

  beforeAll(async () => {
    sender = new Client(ctx.api.baseUrl);
    contract = await OpenApiContract.load(ctx.api.baseUrl);
    contract.watch(ctx.admin);
    contract.watch(sender);
    const c = await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Deploys' });
    expect(c.status).toBe(201);
    changes = { id: c.body.id, secret: c.body.webhookSecret };
    expect(c.body.webhookUrl).toMatch(new RegExp(`/webhooks/v1/integrations/${c.body.id}/change-events$`));
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Alerts' });
    generic = { id: g.body.id, secret: g.body.webhookSecret };
  });

  it('records a generic change (202), and its exact retry is a duplicate (200) with the same change', async () => {
    const body = {
      id: 'rel-1001',
      summary: 'Deployed checkout 2.4.1',
      timestamp: '2026-11-20T10:00:00Z',
      service: 'Checkout',
      environment: 'production',
      kind: 'deploy',
      author: 'ada',
      versionBefore: '2.4.0',
      versionAfter: '2.4.1',
      links: [{ href: 'https://ci.example.com/builds/1001', text: 'Build' }],
      details: { pipeline: 1001 },
    };
    const first = await post(changes, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ deliveryId: expect.any(String), accepted: 1, duplicates: 0, changeIds: [expect.any(String)] });
    const again = await post(changes, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ deliveryId: expect.any(String), accepted: 0, duplicates: 1, changeIds: first.body.changeIds });

    const change = await ctx.admin.get(`/api/v1/changes/${first.body.changeIds[0]}`);
    expect(change.status).toBe(200);
    expect(change.body).toEqual({
      id: first.body.changeIds[0],
      integrationId: changes.id,
      deliveryId: first.body.deliveryId,
      investigationId: null,
      source: 'generic',
      externalId: 'generic:rel-1001',
      occurredAt: '2026-11-20T10:00:00.000000Z',
      receivedAt: expect.any(String),
      service: 'Checkout',
      environment: 'production',
      kind: 'deploy',
      summary: 'Deployed checkout 2.4.1',
      author: 'ada',
      versionBefore: '2.4.0',
      versionAfter: '2.4.1',
      links: [{ href: 'https://ci.example.com/builds/1001', text: 'Build' }],
      details: { pipeline: 1001 },
    });
    const delivery = await ctx.admin.get(`/api/v1/webhook-deliveries/${first.body.deliveryId}`);
    expect(delivery.body).toMatchObject({ integrationId: changes.id, statusCode: 202, accepted: 1, duplicates: 0 });
  });

  it('reads GitHub deliveries signed with the secret (X-Hub-Signature-256), and refuses a wrong signature alike with every credential failure', async () => {
    const res = await postSigned(changes, 'deployment_status', githubDeploymentStatus(5501));
    expect(res.status).toBe(202);
    const change = (await ctx.admin.get(`/api/v1/changes/${res.body.changeIds[0]}`)).body;
    expect(change).toMatchObject({
      source: 'github',
      externalId: 'github:deployment_status:5501',
      kind: 'deploy',
      service: 'checkout',
      environment: 'production',
      author: 'octocat',
      versionAfter: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0',
      occurredAt: '2026-11-20T09:58:00.000000Z',
    });
    // Neither the signature nor any secret is kept with the delivery.
    const delivery = await ctx.admin.get(`/api/v1/webhook-deliveries/${res.body.deliveryId}`);
    expect(delivery.body.headers['x-github-event']).toBe('deployment_status');
    expect(delivery.body.headers['x-hub-signature-256']).toBeUndefined();

    const raw = JSON.stringify(githubDeploymentStatus(5502));
    const wrong = [
      // Signed with another secret.
      { 'x-hub-signature-256': sign('not-the-secret', raw) },
      // The right signature of another body.
      { 'x-hub-signature-256': sign(changes.secret, `${raw} `) },
      // Not a signature at all.
      { 'x-hub-signature-256': 'sha256=zz' },
    ];
    for (const headers of wrong) {
      const refused = await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/change-events`, {
        rawBody: raw,
        headers: { 'content-type': 'application/json', 'x-github-event': 'deployment_status', ...headers },
        origin: false,
      });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(REJECTED);
    }
    // The same signature on the URL of an integration without a kept secret (an alert integration).
    expect((await postSigned(generic, 'deployment_status', githubDeploymentStatus(5503))).status).toBe(401);
  });

  it('answers a GitHub ping and a push to another branch with 202 and no change, saying why', async () => {
    const ping = await postSigned(changes, 'ping', { zen: 'Design for failure.', hook_id: 1, repository: { name: 'checkout' } });
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ accepted: 0, duplicates: 0, changeIds: [], ignored: expect.stringMatching(/ping/i) });
    const push = await postSigned(changes, 'push', {
      ref: 'refs/heads/feature-x',
      before: '0'.repeat(40),
      after: 'b'.repeat(40),
      repository: { name: 'checkout', default_branch: 'main', html_url: 'https://github.com/acme/checkout' },
      pusher: { name: 'ada' },
      commits: [],
      head_commit: null,
      compare: 'https://github.com/acme/checkout/compare/x',
    });
    expect(push.status).toBe(202);
    expect(push.body.ignored).toMatch(/feature-x/);
    const record = await ctx.admin.get(`/api/v1/webhook-deliveries/${push.body.deliveryId}`);
    expect(record.body.error).toMatch(/^No change recorded: /);
  });

  it('reads GitLab deployments with X-Gitlab-Token, and PagerDuty, Argo CD and Flux (signed with X-Signature) events', async () => {
    const gitlab = await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/change-events`, {
      body: gitlabDeployment,
      headers: { 'x-gitlab-token': changes.secret, 'x-gitlab-event': 'Deployment Hook' },
      origin: false,
    });
    expect(gitlab.status).toBe(202);
    const pagerduty = await post(changes, pagerdutyChange);
    expect(pagerduty.status).toBe(202);
    const argocd = await post(changes, argocdNotification);
    expect(argocd.status).toBe(202);
    const raw = JSON.stringify(fluxEvent);
    const flux = await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/change-events`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-signature': sign(changes.secret, raw) },
      origin: false,
    });
    expect(flux.status).toBe(202);

    const read = async (res: { body: { changeIds: string[] } }) => (await ctx.admin.get(`/api/v1/changes/${res.body.changeIds[0]}`)).body;
    expect(await read(gitlab)).toMatchObject({
      source: 'gitlab',
      externalId: 'gitlab:deployment:15:success',
      kind: 'deploy',
      service: 'payments',
      environment: 'production',
      author: 'root',
      occurredAt: '2026-11-20T10:05:00.000000Z',
    });
    expect(await read(pagerduty)).toMatchObject({
      source: 'pagerduty',
      kind: 'config',
      service: 'checkout',
      author: 'grace',
      summary: 'Raised the checkout connection pool to 50',
      links: [{ href: 'https://config.example.com/changes/42', text: 'Change 42' }],
    });
    expect(await read(argocd)).toMatchObject({
      source: 'argocd',
      kind: 'deploy',
      service: 'inventory',
      environment: 'shop',
      author: 'alice',
      versionAfter: '5f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6',
      versionBefore: null,
      occurredAt: '2026-11-20T10:15:00.000000Z',
    });
    expect(await read(flux)).toMatchObject({
      source: 'flux',
      kind: 'deploy',
      service: 'frontend',
      versionAfter: 'main@sha1:0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
      occurredAt: '2026-11-20T10:20:00.000000Z',
    });
  });

  it('refuses what is not a change event (400), not JSON (415) and over 1 MiB (413), recording each', async () => {
    const before = (await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${changes.id}&limit=200`)).body.items.length;
    const noSummary = await post(changes, { service: 'checkout' });
    expect(noSummary.status).toBe(400);
    expect(noSummary.body.error).toMatch(/summary/);
    const badKind = await post(changes, { summary: 'x', kind: 'rollercoaster' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.error).toMatch(/kind/);
    const malformed = await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/change-events`, {
      rawBody: '{"summary": ',
      headers: { 'content-type': 'application/json', 'x-svc-token': changes.secret },
      origin: false,
    });
    expect(malformed.status).toBe(400);
    const text = await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/change-events`, {
      rawBody: 'summary=x',
      headers: { 'content-type': 'text/plain', 'x-svc-token': changes.secret },
      origin: false,
    });
    expect(text.status).toBe(415);
    const big = await post(changes, { summary: 'big', details: { blob: 'x'.repeat(1024 * 1024) } });
    expect(big.status).toBe(413);
    const after = (await ctx.admin.get(`/api/v1/webhook-deliveries?integrationId=${changes.id}&limit=200`)).body.items;
    expect(after.length - before).toBe(5);
    expect(after.slice(0, 5).map((d: { statusCode: number }) => d.statusCode)).toEqual([413, 415, 400, 400, 400]);
  });

  it('keeps changes within their limits by repairing, not refusing', async () => {
    const res = await post(changes, {
      summary: 's'.repeat(5000),
      links: ['javascript:alert(1)', 'https://ci.example.com/ok'],
      details: { blob: 'y'.repeat(20_000) },
    });
    expect(res.status).toBe(202);
    const change = (await ctx.admin.get(`/api/v1/changes/${res.body.changeIds[0]}`)).body;
    expect([...change.summary].length).toBe(1024);
    expect(change.summary.endsWith('…[truncated]')).toBe(true);
    expect(change.links).toEqual([{ href: 'https://ci.example.com/ok', text: null }]);
    expect(JSON.stringify(change.details).length).toBeLessThan(16 * 1024);
    expect((await ctx.admin.get(`/api/v1/webhook-deliveries/${res.body.deliveryId}`)).body.error).toMatch(/repaired/);
    // NUL written as JSON escapes, which PostgreSQL cannot store in text or jsonb, anywhere in the body.
    const nul = await post(changes, {
      id: 'nul\u0000id',
      summary: 'a\u0000b',
      service: 's\u0000',
      author: '\ud800',
      links: [{ href: 'https://ci.example.com/\u0000', text: 't\u0000' }],
      details: { 'k\u0000': ['v\u0000', { deep: '\u0000' }] },
    });
    expect(nul.status).toBe(202);
    const stored = (await ctx.admin.get(`/api/v1/changes/${nul.body.changeIds[0]}`)).body;
    expect(stored.summary).toBe('a\ufffdb');
    expect(JSON.stringify(stored)).not.toContain('\\u0000');
  });

  it('authenticates each route only with its own kind of integration, and every failure is the same 401', async () => {
    const disabled = await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Off' });
    await ctx.admin.post(`/api/v1/integrations/${disabled.body.id}/disable`);
    const body = { summary: 'x' };
    const answers = [
      await post({ id: changes.id, secret: 'whsec_wrong' }, body),
      await post({ id: changes.id, secret: '' }, body),
      await post({ id: '0190a000-0000-7000-8000-000000000000', secret: changes.secret }, body),
      await post({ id: 'not-a-uuid', secret: changes.secret }, body),
      await post({ id: disabled.body.id, secret: disabled.body.webhookSecret }, body),
      // An alert integration's secret on the change route, and a changes integration's on the alert route.
      await post(generic, body),
      await sender.request('POST', `/webhooks/v1/integrations/${changes.id}/alert-events`, {
        body: { alerts: [{ labels: { alertname: 'X' } }] },
        headers: { 'x-svc-token': changes.secret },
        origin: false,
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(REJECTED);
    }
  });

  it('a rotated secret stops signing and authenticating at once; the new one works for both', async () => {
    const created = await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Rotating' });
    const old = { id: created.body.id, secret: created.body.webhookSecret };
    expect((await postSigned(old, 'deployment_status', githubDeploymentStatus(6001))).status).toBe(202);
    const rotated = await ctx.admin.post(`/api/v1/integrations/${old.id}/rotate-webhook-secret`);
    expect(rotated.status).toBe(200);
    const fresh = { id: old.id, secret: rotated.body.webhookSecret };
    expect((await postSigned(old, 'deployment_status', githubDeploymentStatus(6002))).status).toBe(401);
    expect((await post(old, { summary: 'x' })).status).toBe(401);
    expect((await postSigned(fresh, 'deployment_status', githubDeploymentStatus(6003))).status).toBe(202);
    expect((await post(fresh, { summary: 'x', id: 'after-rotation' })).status).toBe(202);
  });

  it('replays a stored change delivery: its changes are duplicates', async () => {
    const res = await post(changes, { id: 'replayed-1', summary: 'Flag checkout.new-pricing on', kind: 'feature_flag', service: 'checkout' });
    const replay = await ctx.admin.post(`/api/v1/webhook-deliveries/${res.body.deliveryId}/replay`);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ replayOf: res.body.deliveryId, statusCode: 200, accepted: 0, duplicates: 1 });
  });

  it('lists changes newest first with filters and keyset pages, on both addressing forms', async () => {
    const batch = await post(changes, {
      changes: [
        { id: 'list-1', summary: 'Config A', kind: 'config', service: 'bookkeeping', timestamp: '2026-11-01T00:00:01Z' },
        { id: 'list-2', summary: 'Config B', kind: 'config', service: 'BOOKKEEPING', timestamp: '2026-11-01T00:00:02Z' },
        { id: 'list-3', summary: 'Migration C', kind: 'migration', service: 'bookkeeping', timestamp: '2026-11-01T00:00:03Z' },
      ],
    });
    expect(batch.body.accepted).toBe(3);
    const ledger = await ctx.admin.get('/api/v1/changes?service=Bookkeeping');
    expect(ledger.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Migration C', 'Config B', 'Config A']);
    const configs = await ctx.admin.get('/api/v1/changes?service=bookkeeping&kind=config&limit=1');
    expect(configs.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Config B']);
    const next = await ctx.admin.get(`/api/v1/changes?service=bookkeeping&kind=config&limit=1&cursor=${encodeURIComponent(configs.body.next)}`);
    expect(next.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Config A']);
    expect(next.body.next).toBeNull();
    // A cursor belongs to its filter.
    expect((await ctx.admin.get(`/api/v1/changes?service=bookkeeping&limit=1&cursor=${encodeURIComponent(configs.body.next)}`)).status).toBe(400);
    const window = await ctx.admin.get('/api/v1/changes?from=2026-11-01T00:00:02Z&until=2026-11-01T00:00:03Z');
    expect(window.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Config B']);
    const alias = await ctx.admin.get('/api/v1/organizations/acme/changes?service=bookkeeping');
    expect(alias.body).toEqual({ items: ledger.body.items, next: null });
    expect((await ctx.admin.get(`/api/v1/changes?integrationId=${generic.id}`)).body.items).toEqual([]);
    expect((await ctx.admin.get('/api/v1/changes?kind=nonsense')).status).toBe(400);
    expect((await ctx.admin.get('/api/v1/changes?from=yesterday')).status).toBe(400);
  });

  it("shows an incident's changes: the hour before its first alert and since, on its services and on none", async () => {
    const alert = await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'CheckoutErrors', service: 'storefront' }, startsAt: '2026-11-21T12:00:00Z' }] },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    const incidentId = alert.body.incidentIds[0];
    await post(changes, {
      changes: [
        { id: 'inc-too-early', summary: 'Too early', service: 'storefront', timestamp: '2026-11-21T10:59:00Z' },
        { id: 'inc-before', summary: 'Deploy before', service: 'Storefront', kind: 'deploy', timestamp: '2026-11-21T11:40:00Z' },
        { id: 'inc-everything', summary: 'Cluster upgrade', kind: 'infrastructure', timestamp: '2026-11-21T11:50:00Z' },
        { id: 'inc-other', summary: 'Other service', service: 'ledger', timestamp: '2026-11-21T11:55:00Z' },
        { id: 'inc-during', summary: 'Rollback during', service: 'storefront', timestamp: '2026-11-21T12:05:00Z' },
      ],
    });
    const open = await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes`);
    expect(open.body.window).toEqual({ from: '2026-11-21T11:00:00.000000Z', until: null });
    // Resolved, its window ends: changes received later (which other tests send, dated now) are not its.
    await sender.request('POST', `/webhooks/v1/integrations/${generic.id}/alert-events`, {
      body: {
        alerts: [
          {
            status: 'resolved',
            labels: { alertname: 'CheckoutErrors', service: 'storefront' },
            startsAt: '2026-11-21T12:00:00Z',
            endsAt: '2026-11-21T12:30:00Z',
          },
        ],
      },
      headers: { 'x-svc-token': generic.secret },
      origin: false,
    });
    const res = await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes`);
    expect(res.status).toBe(200);
    expect(res.body.window).toEqual({ from: '2026-11-21T11:00:00.000000Z', until: '2026-11-21T12:30:00.000000Z' });
    expect(res.body.services).toEqual(['storefront']);
    expect(res.body.dependencies).toEqual([]);
    expect(res.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Deploy before', 'Cluster upgrade', 'Rollback during']);
    expect(res.body).toMatchObject({ total: 3, totalCapped: false });
    const alias = await ctx.admin.get(`/api/v1/organizations/acme/incidents/${incidentId}/changes?limit=2`);
    expect(alias.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Deploy before', 'Cluster upgrade']);
    // The count is of every page, whichever page is read.
    expect(alias.body).toMatchObject({ total: 3, totalCapped: false });
    const rest = await ctx.admin.get(`/api/v1/incidents/${incidentId}/changes?limit=2&cursor=${encodeURIComponent(alias.body.next)}`);
    expect(rest.body.items.map((c: { summary: string }) => c.summary)).toEqual(['Rollback during']);
    expect(rest.body).toMatchObject({ total: 3, totalCapped: false });
    expect((await ctx.admin.get('/api/v1/incidents/0190a000-0000-7000-8000-000000000000/changes')).status).toBe(404);
  });

  it("lets Viewers read, and shows no Organization another's changes", async () => {
    const res = await post(changes, { id: 'tenancy-1', summary: 'Tenancy check', service: 'vault' });
    const changeId = res.body.changeIds[0];
    const viewer = await signedInMember(ctx.api, 'acme', 'viewer', ctx.admin);
    expect((await viewer.client.get(`/api/v1/changes/${changeId}`)).status).toBe(200);
    expect((await viewer.client.get('/api/v1/changes?service=vault')).body.items).toHaveLength(1);

    await ctx.admin.post('/api/v1/organizations', { id: 'globex', displayName: 'Globex' });
    const headers = { 'x-svc-organization': 'globex' };
    expect((await ctx.admin.get('/api/v1/changes', { headers })).body.items).toEqual([]);
    expect((await ctx.admin.get(`/api/v1/changes/${changeId}`, { headers })).status).toBe(404);
    expect((await ctx.admin.get('/api/v1/organizations/globex/changes')).body).toEqual({ items: [], next: null });
    // The other Organization's own changes integration records its own changes, apart.
    const theirs = await ctx.admin.post('/api/v1/integrations', { type: 'changes', name: 'Globex deploys' }, { headers });
    const same = await post({ id: theirs.body.id, secret: theirs.body.webhookSecret }, { id: 'tenancy-1', summary: 'Their own', service: 'vault' });
    expect(same.status).toBe(202);
    expect(same.body.accepted).toBe(1);
    expect((await ctx.admin.get('/api/v1/changes?service=vault', { headers })).body.items.map((c: { summary: string }) => c.summary)).toEqual(['Their own']);
    expect((await ctx.admin.get('/api/v1/changes?service=vault')).body.items.map((c: { summary: string }) => c.summary)).toEqual(['Tenancy check']);
  });
});
