import { createHmac, generateKeyPairSync, hkdfSync } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@svc/platform';
import { BOOTSTRAP_CREDENTIAL, Client, startApi, TestApi } from '../support/api';
import { ADMIN } from '../support/factories';
import { freePort } from '../support/ports';

const START = '/api/v1/auth/oidc/start';
const CALLBACK = '/api/v1/auth/oidc/callback';
const CLIENT_ID = 'svc-console';
const CLIENT_SECRET = 'svc-console-client-secret-0123456789';
const OIDC_COOKIE = '__Host-svc_oidc';
const SESSION_COOKIE = '__Host-svc_session';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// ---------------------------------------------------------------------------------------------
// A real OpenID Provider (oidc-provider) in this process, with a scripted login page.

interface Account {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

interface TestProvider {
  issuer: string;
  accounts: Map<string, Account>;
  close: () => Promise<void>;
}

/**
 * The interaction page: `?login=<account>` signs that account in (a person typing their name),
 * `?deny=1` refuses; consent grants exactly what the client asked for.
 */
async function interact(provider: Provider, accounts: Map<string, Account>, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (url.searchParams.get('deny')) {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person declined' }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.prompt.name === 'login') {
    const login = url.searchParams.get('login');
    if (!login || !accounts.has(login)) {
      res.statusCode = 400;
      res.end('unknown login');
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? (await provider.Grant.find(details.grantId))!
    : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
}

async function startProvider(clients: ClientMetadata[]): Promise<TestProvider> {
  const accounts = new Map<string, Account>();
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let provider: Provider | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider.invalid');
    if (url.pathname.startsWith('/interaction/')) {
      interact(provider!, accounts, url, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    handle!(req, res);
  });
  const issuer = await listen(server);
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  provider = new Provider(issuer, {
    clients,
    jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', use: 'sig', alg: 'RS256' } as never] },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  handle = provider.callback();
  return { issuer, accounts, close: () => closeServer(server) };
}

function consoleClient(publicUrl: string): ClientMetadata {
  return {
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    redirect_uris: [`${publicUrl}${CALLBACK}`],
    grant_types: ['authorization_code'],
    response_types: ['code'],
  };
}

// ---------------------------------------------------------------------------------------------
// A browser: follows nothing by itself, keeps cookies per origin (stricter than a browser, which
// ignores the port, so that two providers on 127.0.0.1 keep their sessions apart).

interface Page {
  url: URL;
  status: number;
  location?: URL;
  setCookies: string[];
  text: string;
  body: any;
}

class Browser {
  private readonly jar = new Map<string, { origin: string; name: string; value: string; path: string }>();

  async get(target: string | URL): Promise<Page> {
    const url = new URL(target);
    const cookie = [...this.jar.values()]
      .filter((c) => c.origin === url.origin && url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) this.store(url, line);
    const text = await res.text();
    const location = res.headers.get('location');
    let body: unknown;
    if (/json/.test(res.headers.get('content-type') ?? '') && text) body = JSON.parse(text);
    return { url, status: res.status, location: location ? new URL(location, url) : undefined, setCookies, text, body };
  }

  cookie(origin: string, name: string): string | undefined {
    return [...this.jar.values()].find((c) => c.origin === origin && c.name === name)?.value;
  }

  setCookie(origin: string, name: string, value: string): void {
    this.jar.set(`${origin} / ${name}`, { origin, name, value, path: '/' });
  }

  private store(url: URL, line: string): void {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attr('path') ?? '/';
    const key = `${url.origin} ${path} ${name}`;
    const maxAge = attr('max-age');
    const expires = attr('expires');
    if ((maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now())) this.jar.delete(key);
    else this.jar.set(key, { origin: url.origin, name, value, path });
  }
}

/** GET /start: returns the provider's authorization URL the API redirected to. */
async function begin(browser: Browser, apiUrl: string, returnTo?: string): Promise<URL> {
  const res = await browser.get(`${apiUrl}${START}${returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`}`);
  expect(res.status, res.text).toBe(302);
  return res.location!;
}

/** At the provider: signs `login` in (or declines) and returns the callback URL it sends the browser to. */
async function authorize(browser: Browser, authorizationUrl: URL, login: string, options: { deny?: boolean } = {}): Promise<URL> {
  let next = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (next.pathname === CALLBACK) return next;
    if (next.pathname.startsWith('/interaction/')) {
      next.searchParams.set('login', login);
      if (options.deny) next.searchParams.set('deny', '1');
    }
    const res = await browser.get(next);
    if (![302, 303].includes(res.status) || !res.location) throw new Error(`provider answered ${res.status} at ${next.pathname}: ${res.text.slice(0, 300)}`);
    next = res.location;
  }
  throw new Error('too many redirects at the provider');
}

/** The whole round trip: start, sign in at the provider, come back. Returns the callback's answer. */
async function signIn(apiUrl: string, login: string, options: { returnTo?: string; browser?: Browser } = {}) {
  const browser = options.browser ?? new Browser();
  const callback = await authorize(browser, await begin(browser, apiUrl, options.returnTo), login);
  const res = await browser.get(callback);
  return { browser, callback, res, session: browser.cookie(apiUrl, SESSION_COOKIE) };
}

/** An API client holding the session a browser got. */
function clientWithSession(apiUrl: string, session: string): Client {
  const client = new Client(apiUrl);
  client.cookie = `${SESSION_COOKIE}=${session}`;
  return client;
}

/** The API, bootstrapped (Ada is Admin of `acme`), reachable at its SVC_PUBLIC_URL. */
async function startOidcApi(env: Record<string, string>, port: number): Promise<{ api: TestApi; admin: Client; adminId: string }> {
  const api = await startApi({ port, env: { SVC_OIDC_ORGANIZATION: '', ...env } });
  const admin = new Client(api.baseUrl);
  const boot = await admin.post(
    '/api/v1/auth/local/bootstrap',
    { organization: { id: 'acme', displayName: 'Acme' }, user: ADMIN },
    {
      headers: { authorization: `Bearer ${BOOTSTRAP_CREDENTIAL}` },
      origin: false,
    },
  );
  if (boot.status !== 201) throw new Error(`bootstrap failed: ${boot.status} ${boot.text}`);
  return { api, admin, adminId: boot.body.user.id };
}

/** A state cookie value for `flow`, signed with this deployment's key (SVC_SECRET_KEY, as the API derives it). */
function signedFlow(flow: Record<string, unknown>): string {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(process.env.SVC_SECRET_KEY!, 'utf8'), Buffer.alloc(0), 'svc:oidc-state', 32));
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(`oidc-state.v1.${payload}`).digest('base64url')}`;
}

const POLICY = {
  sessions: { idleSeconds: 43200, absoluteSeconds: 604800 },
  apiTokensAllowed: true,
  oidcAutoProvision: null as string | null,
  investigationBudgets: { toolRuns: 24, reasonerTurns: 12, wallClockSeconds: 300, stagnationTurns: 3, contextTokens: 100000 },
};

// ---------------------------------------------------------------------------------------------

describe('OIDC sign-in when it is not configured', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ env: { SVC_OIDC_ISSUER: '', SVC_OIDC_CLIENT_ID: '', SVC_OIDC_CLIENT_SECRET: '', SVC_OIDC_ORGANIZATION: '' } });
  });
  afterAll(() => api?.close());

  it('answers 404 on both routes, and meta says so', async () => {
    const client = new Client(api.baseUrl);
    for (const path of [START, `${START}?returnTo=/incidents`, `${START}?returnTo=//evil.example`, CALLBACK, `${CALLBACK}?code=x&state=y`]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'OIDC sign-in is not configured' });
      expect(res.cookies).toEqual([]);
    }
    expect((await client.get('/api/v1/meta')).body.authentication).toEqual({ local: true, oidc: false });
  });
});

describe('OIDC sign-in', () => {
  let provider: TestProvider;
  let api: TestApi;
  let admin: Client;
  let adminId: string;
  let apiUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    provider = await startProvider([consoleClient(apiUrl)]);
    provider.accounts.set('ada-at-idp', { email: 'Ada@Example.com', email_verified: true, name: 'Ada at the IdP' });
    ({ api, admin, adminId } = await startOidcApi(
      {
        SVC_PUBLIC_URL: apiUrl,
        SVC_OIDC_ISSUER: provider.issuer,
        SVC_OIDC_CLIENT_ID: CLIENT_ID,
        SVC_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      },
      port,
    ));
  });
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  const putPolicy = (oidcAutoProvision: string | null) => admin.put('/api/v1/policy', { ...POLICY, oidcAutoProvision }, { origin: apiUrl });

  it('meta reports OIDC as configured', async () => {
    expect((await new Client(apiUrl).get('/api/v1/meta')).body.authentication).toEqual({ local: true, oidc: true });
  });

  it('start redirects to the provider with PKCE S256, state, nonce and the scopes, and sets the signed state cookie', async () => {
    const browser = new Browser();
    const res = await browser.get(`${apiUrl}${START}?returnTo=${encodeURIComponent('/incidents?status=open')}`);
    expect(res.status).toBe(302);
    const authorization = res.location!;
    expect(authorization.origin).toBe(provider.issuer);
    const params = Object.fromEntries(authorization.searchParams);
    expect(params).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${apiUrl}${CALLBACK}`,
      code_challenge_method: 'S256',
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.setCookies.find((c) => c.startsWith(`${OIDC_COOKIE}=`))!;
    const attributes = cookie
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'path=/', 'samesite=lax', 'max-age=600']));
    expect(attributes.some((a) => a.startsWith('domain'))).toBe(false);
    // The cookie carries what the callback needs, but not in a form anyone can alter.
    expect(cookie).not.toContain(params.state);
  });

  it('refuses a returnTo that is not a same-origin relative path with 400, and sets no cookie', async () => {
    const client = new Client(apiUrl);
    const bad = [
      '//evil.example',
      '//evil.example/path',
      'https://evil.example/',
      'evil.example',
      '/\\evil.example',
      '/x\\y',
      '/\t/evil.example',
      'javascript:alert(1)',
      '/ space',
      `/${'a'.repeat(2048)}`,
      '',
    ];
    for (const returnTo of bad) {
      const res = await client.get(`${START}?returnTo=${encodeURIComponent(returnTo)}`);
      expect(res.status, returnTo).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining('returnTo') });
      expect(res.cookies).toEqual([]);
    }
    const twice = await client.get(`${START}?returnTo=/a&returnTo=/b`);
    expect(twice.status).toBe(400);
    const unknown = await client.get(`${START}?next=/a`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('next');
    const longest = await client.get(`${START}?returnTo=/${'a'.repeat(2047)}`);
    expect(longest.status).toBe(302);
  });

  it('signs an existing user in by verified email: session cookie, 302 to returnTo, identity linked', async () => {
    const { res, session } = await signIn(apiUrl, 'ada-at-idp', { returnTo: '/incidents?status=open' });
    expect(res.status, res.text).toBe(302);
    expect(res.location!.href).toBe(`${apiUrl}/incidents?status=open`);
    expect(res.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBeDefined();
    expect(res.setCookies.some((c) => c.startsWith(`${OIDC_COOKIE}=;`))).toBe(true);
    const sessionCookie = res.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    const attributes = sessionCookie
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'secure', 'path=/', 'samesite=lax']));

    const current = await clientWithSession(apiUrl, session!).get('/api/v1/session');
    expect(current.status).toBe(200);
    expect(current.body.user).toEqual({ id: adminId, email: ADMIN.email, name: ADMIN.name });
    expect(current.body.organization).toEqual({ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'admin' } });
    const identities = await api.dataSource.query('SELECT issuer, subject, user_id FROM oidc_identities WHERE user_id = $1', [adminId]);
    expect(identities).toEqual([{ issuer: provider.issuer, subject: 'ada-at-idp', user_id: adminId }]);
  });

  it('the Location is relative to this site: the callback never redirects elsewhere', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl, '/'), 'ada-at-idp');
    const res = await fetch(callback, { redirect: 'manual', headers: { cookie: `${OIDC_COOKIE}=${browser.cookie(apiUrl, OIDC_COOKIE)}` } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    await res.text();
  });

  it('a second sign-in matches by (issuer, subject), even after the email changed at the provider', async () => {
    expect((await signIn(apiUrl, 'ada-at-idp')).res.status).toBe(302); // linked by email, if no earlier sign-in did
    provider.accounts.set('ada-at-idp', { email: 'ada.lovelace@new-domain.example', email_verified: true, name: 'Ada' });
    try {
      const { res, session } = await signIn(apiUrl, 'ada-at-idp');
      expect(res.status, res.text).toBe(302);
      expect(res.location!.pathname).toBe('/');
      const current = await clientWithSession(apiUrl, session!).get('/api/v1/session');
      expect(current.body.user.id).toBe(adminId);
      expect(current.body.user.email).toBe(ADMIN.email);
      expect(await api.dataSource.query('SELECT count(*)::int AS n FROM oidc_identities WHERE user_id = $1', [adminId])).toEqual([{ n: 1 }]);
    } finally {
      provider.accounts.set('ada-at-idp', { email: 'Ada@Example.com', email_verified: true, name: 'Ada at the IdP' });
    }
  });

  it('records the sign-ins and the link in the audit trail', async () => {
    const { res, session } = await signIn(apiUrl, 'ada-at-idp');
    expect(res.status).toBe(302);
    const sessionId = (await clientWithSession(apiUrl, session!).get('/api/v1/session')).body.session.id;
    const signIns = await admin.get('/api/v1/audit-events?action=session.sign_in');
    expect(signIns.status).toBe(200);
    const oidcSignIns = signIns.body.events.filter((e: any) => e.detail.method === 'oidc');
    expect(oidcSignIns[0].targetId).toBe(sessionId);
    expect(oidcSignIns[0]).toMatchObject({
      actorKind: 'user',
      actorId: adminId,
      actorName: ADMIN.name,
      action: 'session.sign_in',
      outcome: 'allowed',
      targetKind: 'session',
      targetId: expect.any(String),
      detail: { method: 'oidc', issuer: provider.issuer },
    });
    const links = await admin.get('/api/v1/audit-events?action=user.identity_link');
    expect(links.body.events).toHaveLength(1);
    expect(links.body.events[0]).toMatchObject({
      targetKind: 'user',
      targetId: adminId,
      detail: { method: 'oidc', issuer: provider.issuer, subject: 'ada-at-idp' },
    });
  });

  it('refuses an unknown identity with 403 while the Policy provisions no one', async () => {
    expect((await putPolicy(null)).status).toBe(200);
    provider.accounts.set('hedy-at-idp', { email: 'hedy@example.com', email_verified: true, name: 'Hedy Lamarr' });
    const { res, session } = await signIn(apiUrl, 'hedy-at-idp');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'No account for this identity' });
    expect(session).toBeUndefined();
    expect(await api.dataSource.query(`SELECT id FROM users WHERE email = 'hedy@example.com'`)).toEqual([]);
    expect(await api.dataSource.query(`SELECT id FROM oidc_identities WHERE subject = 'hedy-at-idp'`)).toEqual([]);
  });

  it('provisions an unknown identity with the role the Policy names, audited', async () => {
    provider.accounts.set('grace-at-idp', { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' });
    expect((await putPolicy('editor')).status).toBe(200);
    try {
      await provisionsGrace();
    } finally {
      await putPolicy(null);
    }
  });

  async function provisionsGrace(): Promise<void> {
    const { res, session } = await signIn(apiUrl, 'grace-at-idp', { returnTo: '/investigations' });
    expect(res.status, res.text).toBe(302);
    expect(res.location!.pathname).toBe('/investigations');
    const current = await clientWithSession(apiUrl, session!).get('/api/v1/session');
    expect(current.status).toBe(200);
    expect(current.body.user).toEqual({ id: expect.any(String), email: 'grace@example.com', name: 'Grace Hopper' });
    expect(current.body.organization).toEqual({ id: 'acme', displayName: 'Acme', membership: { id: expect.any(String), role: 'editor' } });
    const graceId = current.body.user.id as string;
    const [user] = await api.dataSource.query('SELECT password_hash FROM users WHERE id = $1', [graceId]);
    expect(user.password_hash).toBeNull();

    const provisioned = await admin.get(`/api/v1/audit-events?action=user.provision&targetId=${graceId}`);
    expect(provisioned.body.events).toHaveLength(1);
    expect(provisioned.body.events[0]).toMatchObject({
      actorId: graceId,
      targetKind: 'user',
      targetId: graceId,
      detail: { method: 'oidc', role: 'editor', issuer: provider.issuer },
    });
    const signIns = await admin.get(`/api/v1/audit-events?action=session.sign_in&actorId=${graceId}`);
    expect(signIns.body.events).toHaveLength(1);
    expect(signIns.body.events[0].detail).toEqual({ method: 'oidc', issuer: provider.issuer });

    // The next sign-in finds her by subject: no second user, no second provisioning.
    const again = await signIn(apiUrl, 'grace-at-idp');
    expect(again.res.status).toBe(302);
    expect((await clientWithSession(apiUrl, again.session!).get('/api/v1/session')).body.user.id).toBe(graceId);
    expect((await admin.get(`/api/v1/audit-events?action=user.provision&targetId=${graceId}`)).body.events).toHaveLength(1);
  }

  it('never links or provisions on an unverified email, even while the Policy provisions', async () => {
    expect((await putPolicy('editor')).status).toBe(200);
    try {
      await refusesUnverified();
    } finally {
      await putPolicy(null);
    }
  });

  async function refusesUnverified(): Promise<void> {
    // Claims Ada's address without the provider having verified it.
    provider.accounts.set('mallory-at-idp', { email: 'ada@example.com', email_verified: false, name: 'Mallory' });
    const claimed = await signIn(apiUrl, 'mallory-at-idp');
    expect(claimed.res.status).toBe(403);
    expect(claimed.res.body).toEqual({ error: 'No account for this identity' });
    expect(claimed.session).toBeUndefined();
    provider.accounts.set('unverified-at-idp', { email: 'new-person@example.com', name: 'Unverified' });
    const unverified = await signIn(apiUrl, 'unverified-at-idp');
    expect(unverified.res.status).toBe(403);
    expect(await api.dataSource.query(`SELECT subject FROM oidc_identities WHERE subject IN ('mallory-at-idp', 'unverified-at-idp')`)).toEqual([]);
    expect(await api.dataSource.query(`SELECT id FROM users WHERE email = 'new-person@example.com'`)).toEqual([]);
  }

  it('refuses a disabled user with 403 and records the failed attempt', async () => {
    provider.accounts.set('linus-at-idp', { email: 'linus@example.com', email_verified: true, name: 'Linus' });
    expect((await putPolicy('editor')).status).toBe(200);
    const first = await signIn(apiUrl, 'linus-at-idp');
    expect((await putPolicy(null)).status).toBe(200);
    expect(first.res.status).toBe(302);
    const [{ id: linusId }] = await api.dataSource.query(`SELECT id FROM users WHERE email = 'linus@example.com'`);
    await api.dataSource.query('UPDATE users SET disabled_at = now() WHERE id = $1', [linusId]);
    const { res, session } = await signIn(apiUrl, 'linus-at-idp');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'This account is disabled' });
    expect(session).toBeUndefined();
    const failed = await admin.get(`/api/v1/audit-events?action=session.sign_in&outcome=failed&targetId=${linusId}`);
    expect(failed.body.events).toHaveLength(1);
    expect(failed.body.events[0].detail).toEqual({ method: 'oidc', issuer: provider.issuer, reason: 'account disabled' });
  });

  it('a tampered state is 400 and signs no one in', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    // Another last character, whatever the state ended with (a fixed one would leave 1 state in 64 untouched).
    const state = callback.searchParams.get('state')!;
    callback.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
    const res = await browser.get(callback);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining('state') });
    expect(browser.cookie(apiUrl, SESSION_COOKIE)).toBeUndefined();
    expect(res.setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it('a missing or altered state cookie is 400 and signs no one in', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    const cookie = browser.cookie(apiUrl, OIDC_COOKIE)!;
    const [payload, mac] = cookie.split('.');
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const altered = `${Buffer.from(JSON.stringify({ ...flow, returnTo: '/elsewhere' })).toString('base64url')}.${mac}`;
    for (const value of [undefined, altered, `${payload}.${'A'.repeat(43)}`, 'garbage']) {
      const res = await fetch(callback, { redirect: 'manual', headers: value === undefined ? {} : { cookie: `${OIDC_COOKIE}=${value}` } });
      expect(res.status, String(value)).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String) });
      expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    }
  });

  it('an expired state cookie is 400, even correctly signed', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    const [payload] = browser.cookie(apiUrl, OIDC_COOKIE)!.split('.');
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    // Signed with this deployment's key (SVC_SECRET_KEY, as the API derives it), but past its 10 minutes.
    const key = Buffer.from(hkdfSync('sha256', Buffer.from(process.env.SVC_SECRET_KEY!, 'utf8'), Buffer.alloc(0), 'svc:oidc-state', 32));
    const expiredPayload = Buffer.from(JSON.stringify({ ...flow, expiresAt: Math.floor(Date.now() / 1000) - 1 })).toString('base64url');
    const expired = `${expiredPayload}.${createHmac('sha256', key).update(`oidc-state.v1.${expiredPayload}`).digest('base64url')}`;
    const res = await fetch(callback, { redirect: 'manual', headers: { cookie: `${OIDC_COOKIE}=${expired}` } });
    expect(res.status).toBe(400);
    await res.text();
    // The same cookie, unexpired and signed the same way, is accepted: the test forges exactly what the API signs.
    const validPayload = Buffer.from(JSON.stringify(flow)).toString('base64url');
    const valid = `${validPayload}.${createHmac('sha256', key).update(`oidc-state.v1.${validPayload}`).digest('base64url')}`;
    const accepted = await fetch(callback, { redirect: 'manual', headers: { cookie: `${OIDC_COOKIE}=${valid}` } });
    expect(accepted.status).toBe(302);
    await accepted.text();
  });

  it('the callback of one sign-in with the cookie of another is 400 (state mismatch)', async () => {
    const browser = new Browser();
    const first = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    await begin(browser, apiUrl); // a second start replaces the state cookie
    const res = await browser.get(first);
    expect(res.status).toBe(400);
    expect(browser.cookie(apiUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it('an ID token with another nonce is 401 credential_rejected', async () => {
    const browser = new Browser();
    const authorization = await begin(browser, apiUrl);
    authorization.searchParams.set('nonce', 'a-nonce-this-browser-never-started-with-0123');
    const res = await browser.get(await authorize(browser, authorization, 'ada-at-idp'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    expect(browser.cookie(apiUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it('a replayed callback (the code is single-use) is 401 credential_rejected', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    const cookie = `${OIDC_COOKIE}=${browser.cookie(apiUrl, OIDC_COOKIE)}`;
    const first = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(first.status).toBe(302);
    await first.text();
    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
  });

  it('a code redeemed without the PKCE verifier that started it is 401', async () => {
    // A flow's own state cookie, with only its verifier replaced by another flow's (signed with
    // this deployment's key, as the API signs it): state and nonce match, PKCE alone does not.
    const a = new Browser();
    const b = new Browser();
    const callbackA = await authorize(a, await begin(a, apiUrl), 'ada-at-idp');
    await begin(b, apiUrl);
    const flowOf = (browser: Browser) => JSON.parse(Buffer.from(browser.cookie(apiUrl, OIDC_COOKIE)!.split('.')[0], 'base64url').toString('utf8'));
    const flowA = flowOf(a);
    const otherVerifier = flowOf(b).codeVerifier as string;
    expect(otherVerifier).not.toBe(flowA.codeVerifier);
    const res = await fetch(callbackA, { redirect: 'manual', headers: { cookie: `${OIDC_COOKIE}=${signedFlow({ ...flowA, codeVerifier: otherVerifier })}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    // The same code with its own verifier still signs in: the verifier was all that was wrong.
    const accepted = await fetch(callbackA, { redirect: 'manual', headers: { cookie: `${OIDC_COOKIE}=${signedFlow(flowA)}` } });
    expect(accepted.status).toBe(302);
    await accepted.text();
  });

  it('refuses an authorization response whose `iss` parameter names another issuer, though its code and ID token are good', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp');
    expect(callback.searchParams.get('iss')).toBe(provider.issuer);
    const cookie = `${OIDC_COOKIE}=${browser.cookie(apiUrl, OIDC_COOKIE)}`;
    const forged = new URL(callback);
    forged.searchParams.set('iss', 'https://issuer.example');
    const refused = await fetch(forged, { redirect: 'manual', headers: { cookie } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    // The very same response with its own `iss` signs in: nothing but the parameter was wrong.
    const accepted = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    expect(accepted.status).toBe(302);
    await accepted.text();
  });

  it('a refusal at the provider is 401 credential_rejected', async () => {
    const browser = new Browser();
    const callback = await authorize(browser, await begin(browser, apiUrl), 'ada-at-idp', { deny: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const res = await browser.get(callback);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.stringContaining('access_denied'), reason: 'credential_rejected' });
  });
});

describe('OIDC sign-in with an ID token from a foreign issuer', () => {
  let foreign: TestProvider;
  let mixUp: Server;
  let mixUpIssuer: string;
  let api: TestApi;
  let apiUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    foreign = await startProvider([consoleClient(apiUrl)]);
    foreign.accounts.set('ada-at-foreign', { email: 'ada@example.com', email_verified: true, name: 'Ada' });
    // The configured issuer's discovery names itself, but sends the browser and the code to the
    // foreign provider (a mix-up): the ID token the API receives is signed and issued by the foreign one.
    mixUp = createServer((req, res) => {
      if (req.url !== '/.well-known/openid-configuration') {
        res.statusCode = 404;
        res.end();
        return;
      }
      void fetch(`${foreign.issuer}/.well-known/openid-configuration`)
        .then((r) => r.json() as Promise<Record<string, unknown>>)
        .then((metadata) => {
          const { authorization_response_iss_parameter_supported: _omitted, ...rest } = metadata;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ ...rest, issuer: mixUpIssuer }));
        });
    });
    mixUpIssuer = await listen(mixUp);
    ({ api } = await startOidcApi(
      { SVC_PUBLIC_URL: apiUrl, SVC_OIDC_ISSUER: mixUpIssuer, SVC_OIDC_CLIENT_ID: CLIENT_ID, SVC_OIDC_CLIENT_SECRET: CLIENT_SECRET },
      port,
    ));
  });
  afterAll(async () => {
    await api?.close();
    if (mixUp) await closeServer(mixUp);
    await foreign?.close();
  });

  it('refuses the foreign ID token with 401 credential_rejected', async () => {
    const browser = new Browser();
    const authorization = await begin(browser, apiUrl);
    expect(authorization.origin).toBe(foreign.issuer);
    const callback = await authorize(browser, authorization, 'ada-at-foreign');
    // Without the RFC 9207 `iss` response parameter, only the ID token's `iss` tells.
    expect(callback.searchParams.get('iss')).toBe(foreign.issuer);
    callback.searchParams.delete('iss');
    const res = await browser.get(callback);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.any(String), reason: 'credential_rejected' });
    expect(browser.cookie(apiUrl, SESSION_COOKIE)).toBeUndefined();
    expect(await api.dataSource.query('SELECT id FROM oidc_identities')).toEqual([]);
  });

  it("refuses the foreign issuer's whole authorization response (its `iss` parameter and its ID token) with 401 too", async () => {
    const browser = new Browser();
    const res = await browser.get(await authorize(browser, await begin(browser, apiUrl), 'ada-at-foreign'));
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('credential_rejected');
  });
});

describe('OIDC provisioning Organization from SVC_OIDC_ORGANIZATION', () => {
  let provider: TestProvider;
  let api: TestApi;
  let admin: Client;
  let apiUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    provider = await startProvider([consoleClient(apiUrl)]);
    ({ api, admin } = await startOidcApi(
      {
        SVC_PUBLIC_URL: apiUrl,
        SVC_OIDC_ISSUER: provider.issuer,
        SVC_OIDC_CLIENT_ID: CLIENT_ID,
        SVC_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        SVC_OIDC_ORGANIZATION: 'acme-eu',
      },
      port,
    ));
  });
  afterAll(async () => {
    await api?.close();
    await provider?.close();
  });

  it('validates the setting as an Organization id', () => {
    expect(() => loadConfig({ SVC_OIDC_ORGANIZATION: 'Not An Id' })).toThrow(ConfigError);
    expect(loadConfig({ SVC_OIDC_ORGANIZATION: 'acme-eu' }).SVC_OIDC_ORGANIZATION).toBe('acme-eu');
  });

  it('provisions into the named Organization by its Policy, not into the oldest one', async () => {
    provider.accounts.set('erin-at-idp', { email: 'erin@example.com', email_verified: true, name: 'Erin' });
    // The named Organization does not exist yet: nobody is provisioned, whatever the oldest one allows.
    expect((await admin.put('/api/v1/policy', { ...POLICY, oidcAutoProvision: 'admin' }, { origin: apiUrl })).status).toBe(200);
    expect((await signIn(apiUrl, 'erin-at-idp')).res.status).toBe(403);

    expect((await admin.post('/api/v1/organizations', { id: 'acme-eu', displayName: 'Acme Europe' }, { origin: apiUrl })).status).toBe(201);
    expect((await signIn(apiUrl, 'erin-at-idp')).res.status).toBe(403); // acme-eu's Policy provisions no one
    const eu = { origin: apiUrl, headers: { 'x-svc-organization': 'acme-eu' } };
    expect((await admin.put('/api/v1/policy', { ...POLICY, oidcAutoProvision: 'viewer' }, eu)).status).toBe(200);
    const { res, session } = await signIn(apiUrl, 'erin-at-idp');
    expect(res.status).toBe(302);
    const current = await clientWithSession(apiUrl, session!).get('/api/v1/session');
    expect(current.body.organization).toEqual({ id: 'acme-eu', displayName: 'Acme Europe', membership: { id: expect.any(String), role: 'viewer' } });
    const organizations = await clientWithSession(apiUrl, session!).get('/api/v1/organizations');
    expect(organizations.body.organizations.map((o: { id: string }) => o.id)).toEqual(['acme-eu']);
  });
});
