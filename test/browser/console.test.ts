import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { BOOTSTRAP_CREDENTIAL, Client } from '../support/api';
import { type ApiProcess, startApiProcess } from '../support/api-process';
import { launchBrowser, screenshot, seriousViolations } from '../support/browser';
import { createTestDatabase } from '../support/databases';
import { ADMIN } from '../support/factories';
import { investigationEnded } from '../support/investigations';
import { READER_RULES, shopCluster } from '../support/kubernetes-scenario';
import { KubernetesStandIn } from '../support/kubernetes-stand-in';
import { shopLogs } from '../support/loki-scenario';
import { LokiStandIn } from '../support/loki-stand-in';
import { OpenApiContract } from '../support/openapi-contract';
import { MonitoringProcess } from '../support/monitoring-stack';
import { freePort } from '../support/ports';
import { TestExporter } from '../support/test-exporter';
import { until } from '../support/until';
import { startWorker, type TestWorker } from '../support/worker';

/**
 * A forwarder in front of the real Prometheus that the test can hold shut: requests wait while
 * it is closed, so an investigation can be caught between two of its tool runs.
 */
class Gate {
  private release: (() => void) | null = null;
  private opened: Promise<void> = Promise.resolve();
  waiting = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<Gate> {
    let gate: Gate | undefined;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => void gate!.forward(target, req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    gate = new Gate(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return gate;
  }

  close(): void {
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release?.();
    this.release = null;
  }

  private async forward(target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.waiting += 1;
    await this.opened;
    this.waiting -= 1;
    try {
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers: { accept: req.headers.accept ?? '*/*' } });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  }

  stop(): Promise<void> {
    this.open();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The browser's own time zone in these tests: not UTC, so a time shown in the wrong zone shows. */
const BROWSER_ZONE = 'America/New_York';

const ALERT = { labels: { alertname: 'HighErrorRate', job: 'checkout', severity: 'page' }, annotations: { summary: 'Checkout is failing requests' } };

/**
 * The console in Debian's Chromium, against the real API and worker processes, PostgreSQL, Redis
 * and a real Prometheus scraping a service whose new version fails requests. One browser and one
 * set of processes serve every test; each test signs in on a page of its own and builds the
 * incidents, investigations, postmortems and Organizations it looks at, so they run in any order.
 */
describe('the web console in a real browser', () => {
  let baseUrl: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess;
  let worker: TestWorker;
  let exporter: TestExporter;
  let prometheus: MonitoringProcess;
  let gate: Gate;
  let browser: Browser;
  /** The browser contexts the running test opened, and its page (screenshot when it fails). */
  let contexts: BrowserContext[] = [];
  let page: Page | undefined;
  let admin: Client;
  /** Every answer the Admin's client gets is checked against the OpenAPI document. */
  let contract: OpenApiContract;
  let dropDatabase: () => Promise<void>;

  /** An unsafe call as the signed-in Admin (the Origin of this deployment). */
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) => admin.post(path, body, { origin: baseUrl, headers });
  const sendAlert = (alert: object, secret: string, id: string) =>
    new Client(baseUrl).request('POST', `/webhooks/v1/integrations/${id}/alert-events`, {
      body: { alerts: [alert] },
      headers: { 'x-svc-token': secret },
      origin: false,
    });
  /**
   * The checkout alert from a webhook integration of its own (so its own incident), its summary,
   * the incident's title, naming `what`. `send` delivers it firing, or resolved.
   */
  async function checkoutAlert(what: string, organization = 'acme') {
    const integration = await post('/api/v1/integrations', { type: 'generic', name: `Shop alerts: ${what}` }, { 'x-svc-organization': organization });
    expect(integration.status).toBe(201);
    const alert = { ...ALERT, annotations: { summary: `Checkout is failing requests (${what})` } };
    return {
      title: alert.annotations.summary,
      send: async (status: 'firing' | 'resolved' = 'firing'): Promise<string> => {
        const delivered = await sendAlert({ ...alert, status }, integration.body.webhookSecret, integration.body.id);
        expect(delivered.status).toBe(202);
        return delivered.body.incidentIds[0];
      },
    };
  }
  /** A browser context of the running test (closed after it). */
  async function newContext(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
    // A browser away from UTC: every time the console shows must still follow the zone chosen.
    const context = await browser.newContext({
      viewport,
      baseURL: baseUrl,
      permissions: ['clipboard-read', 'clipboard-write'],
      timezoneId: BROWSER_ZONE,
      locale: 'en-US',
    });
    contexts.push(context);
    return context;
  }
  /** A page of the running test's own, signed in through the form (as the Admin unless told), on the incidents list. */
  async function signedInPage(
    email = ADMIN.email,
    password = ADMIN.password,
    viewport?: { width: number; height: number },
  ): Promise<{ page: Page; context: BrowserContext }> {
    const context = await newContext(viewport);
    const opened = await context.newPage();
    page = opened;
    await opened.goto('/');
    await opened.getByLabel('Email').fill(email);
    await opened.getByLabel('Password').fill(password);
    await opened.getByRole('button', { name: 'Sign in' }).click();
    await opened.getByRole('heading', { name: 'Incidents' }).waitFor();
    return { page: opened, context };
  }
  const expectAccessible = async (p: Page) => expect(await seriousViolations(p)).toEqual([]);
  /** How far the page scrolls sideways: how much wider the document is than the window (0 when it fits). */
  const horizontalOverflow = (p: Page) =>
    p.evaluate(() => {
      const { documentElement } = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
      return documentElement.scrollWidth - documentElement.clientWidth;
    });
  const shownSequences = (p: Page) => p.locator('[data-sequence]').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-sequence'))));
  const streamedSequences = async (investigationId: string) => {
    const activity = await admin.get(`/api/v1/investigations/${investigationId}/activity?limit=200`);
    expect(activity.status).toBe(200);
    return activity.body.items.filter((e: { type: string }) => e.type !== 'hypothesis.updated').map((e: { sequence: number }) => e.sequence);
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      SVC_PUBLIC_URL: baseUrl,
      SVC_BOOTSTRAP_CREDENTIAL: BOOTSTRAP_CREDENTIAL,
      SVC_SECRET_KEY: randomBytes(32).toString('hex'),
      SVC_QUEUE_PREFIX: `test-${database.name}`,
      LOG_LEVEL: 'warn',
    };
    [api, worker, exporter, browser] = await Promise.all([
      startApiProcess(env, baseUrl),
      startWorker({ ...(env as Record<string, string>), LOG_LEVEL: 'info' }),
      TestExporter.start(),
      launchBrowser(),
    ]);
    admin = new Client(baseUrl);
    contract = await OpenApiContract.load(baseUrl);
    contract.watch(admin);
    const boot = await admin.post(
      '/api/v1/auth/local/bootstrap',
      { organization: { id: 'acme', displayName: 'Acme' }, user: ADMIN },
      { headers: { authorization: `Bearer ${BOOTSTRAP_CREDENTIAL}` }, origin: false },
    );
    expect(boot.status).toBe(201);

    prometheus = await MonitoringProcess.prometheus(
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files:',
        '  - rules.yml',
        'scrape_configs:',
        '  - job_name: checkout',
        `    static_configs: [{ targets: ['127.0.0.1:${exporter.port}'] }]`,
        '',
      ].join('\n'),
      undefined,
      {
        'rules.yml': [
          'groups:',
          '  - name: checkout',
          '    rules:',
          '      - alert: HighErrorRate',
          '        expr: rate(app_http_errors_total[10s]) > 1',
          '        labels: { severity: page }',
          '        annotations: { summary: "Checkout is failing requests" }',
          '',
        ].join('\n'),
      },
    );
    gate = await Gate.start(prometheus.url);
    const source = await post('/api/v1/integrations', { type: 'prometheus', name: 'Prometheus', config: { baseUrl: gate.url } });
    expect(source.status).toBe(201);

    // The old version runs cleanly for a while, then the new one fails requests.
    const scrapesOf = (version: string, count: number) =>
      until(
        async () => {
          const query = `count_over_time(app_build_info{version="${version}"}[5m])`;
          const body = (await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(query)}`).then((r) => r.json())) as {
            data: { result: Array<{ value: [number, string] }> };
          };
          return Number(body.data.result[0]?.value[1] ?? 0) >= count;
        },
        90_000,
        `${count} scrapes of version ${version}`,
      );
    await scrapesOf('1.0.0', 15);
    exporter.release('1.1.0', 8);
    await scrapesOf('1.1.0', 5);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.close();
    if (api && api.child.exitCode === null && api.child.signalCode === null) {
      const exited = new Promise((resolve) => api.child.once('exit', resolve));
      api.child.kill('SIGTERM');
      await exited;
    }
    await Promise.all([gate?.stop(), prometheus?.stop(), exporter?.stop()]);
    await dropDatabase?.();
  }, 60_000);

  beforeEach(() => {
    contexts = [];
    page = undefined;
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page && !page.isClosed()) console.error(`screenshot: ${await screenshot(page, task.name)}`);
    for (const context of contexts) await context.close();
  });

  it('signs a person in with their email and password, and serves the console at every console path', async () => {
    page = await (await newContext()).newPage();
    await page.goto('/incidents');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The contract's message, as the API wrote it.
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/./);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    await expect(page.getByRole('combobox', { name: 'Organization' }).inputValue()).resolves.toBe('acme');
    await expectAccessible(page);

    // The API's own paths keep their JSON answers; only console paths fall back to the page.
    const missing = await fetch(`${baseUrl}/api/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Not found' });
    expect((await fetch(`${baseUrl}/webhooks/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${baseUrl}/assets/missing.js`)).status).toBe(404);
    const deep = await fetch(`${baseUrl}/investigations/0190f5a8-0000-7000-8000-000000000000`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
    expect(deep.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${baseUrl}/healthz`)).headers.get('content-type')).toContain('application/json');
  }, 120_000);

  it('shows an alert posted to the webhook as an incident, without a reload', async () => {
    // An Organization of this test's own, empty until the alert arrives.
    expect((await post('/api/v1/organizations', { id: 'live', displayName: 'Live' })).status).toBe(201);
    const alert = await checkoutAlert('live', 'live');
    const { page } = await signedInPage();
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('live');
    await page.getByText('Nothing here yet.').waitFor();
    await alert.send();
    await page.getByRole('link', { name: alert.title, exact: true }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Status').selectOption('resolved');
    await page.getByText('Nothing here yet.').waitFor();
    await page.getByLabel('Status').selectOption('open');
    await page.getByRole('link', { name: alert.title, exact: true }).click();
    await page
      .getByRole('heading', { name: /^Timeline/ })
      .locator('..')
      .getByText(/HighErrorRate/)
      .waitFor();
    await expectAccessible(page);
  }, 120_000);

  /**
   * An Organization of the test's own with a webhook integration: `deliver` posts a generic body to
   * it (202 expected) and returns the incidents it touched.
   */
  async function organizationWithAlerts(id: string) {
    expect((await post('/api/v1/organizations', { id, displayName: id })).status).toBe(201);
    const integration = await post('/api/v1/integrations', { type: 'generic', name: 'Shop alerts' }, { 'x-svc-organization': id });
    expect(integration.status).toBe(201);
    return async (body: object): Promise<string[]> => {
      const delivered = await new Client(baseUrl).request('POST', `/webhooks/v1/integrations/${integration.body.id}/alert-events`, {
        body,
        headers: { 'x-svc-token': integration.body.webhookSecret },
        origin: false,
      });
      expect(delivered.status).toBe(202);
      return delivered.body.incidentIds;
    };
  }
  const minutesAgo = (minutes: number, now = Date.now()) => new Date(now - minutes * 60_000).toISOString();
  /** A checkout error alert that began ten minutes ago, grouped with a disk warning firing for three hours. */
  const shopAlerts = (now: number) => ({
    groupKey: 'shop',
    alerts: [
      {
        labels: { alertname: 'DiskFilling', severity: 'warning', instance: 'db-1' },
        annotations: { summary: 'Disk on db-1 fills up' },
        startsAt: minutesAgo(180, now),
      },
      {
        labels: { alertname: 'CheckoutErrors', severity: 'critical', service: 'checkout', namespace: 'shop' },
        annotations: { summary: 'Checkout error ratio above 5%' },
        startsAt: minutesAgo(10, now),
      },
    ],
  });
  /** `count` incidents, one per alert name, opened from five hours ago backwards a minute apart. */
  const noiseAlerts = (count: number, now: number) => ({
    alerts: Array.from({ length: count }, (_, n) => ({
      labels: { alertname: `Noise${String(n).padStart(3, '0')}`, severity: 'info', job: 'batch' },
      startsAt: minutesAgo(300 + n, now),
    })),
  });
  /** A time of day ("13:05:09") as a zone's clock shows it. */
  const clockIn = (iso: string, timeZone: string) =>
    new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso));

  it('lists incidents for triage, each named by its telling alert, with filters, order, zone and pages kept in the URL', async () => {
    const deliver = await organizationWithAlerts('triage');
    const now = Date.now();
    const [shopId] = await deliver(shopAlerts(now));
    expect(await deliver(noiseAlerts(120, now))).toHaveLength(120);
    // The title stays the first alert's; the headline is the newest, most severe alert that is not chronic.
    const shop = await admin.get(`/api/v1/incidents/${shopId}`, { headers: { 'x-svc-organization': 'triage' } });
    expect(shop.body).toMatchObject({
      title: 'Disk on db-1 fills up',
      headline: 'Checkout error ratio above 5%',
      severity: 'critical',
      service: 'checkout',
      namespace: 'shop',
      alertCount: 2,
    });

    const { page } = await signedInPage();
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('triage');
    const table = page.getByRole('table', { name: 'Incidents' });
    const first = table.locator('tbody tr').first();
    await first.getByRole('link', { name: 'Checkout error ratio above 5%', exact: true }).waitFor();
    await expect(page.title()).resolves.toBe('Incidents · Incident Investigation');
    await first.getByText('Not investigated').waitFor();
    const cells = await first.locator('td').allTextContents();
    expect(cells[0]).toContain('checkout · namespace shop');
    expect(cells[1]).toBe('critical');
    // Times in UTC by default, the zone named; the browser's own zone (New York) once chosen, and remembered.
    const opened = minutesAgo(180, now);
    expect(cells[2]).toContain(clockIn(opened, 'UTC'));
    expect(cells[2]).toMatch(/UTC$/);
    expect(cells[3]).toMatch(/^3 h( \d+ min)? so far$/);
    expect(cells[4]).toBe('2');
    expect(cells[5]).toBe('Not investigated');
    await page.getByLabel('Times in').selectOption('local');
    await table.getByRole('columnheader', { name: `Opened (${BROWSER_ZONE})` }).waitFor();
    await page.reload();
    await table.getByRole('columnheader', { name: `Opened (${BROWSER_ZONE})` }).waitFor();
    const local = (await first.locator('td').nth(2).textContent())!;
    expect(local).toContain(clockIn(opened, BROWSER_ZONE));
    expect(local).toMatch(/E[SD]T$/);
    await expectAccessible(page);

    // Filters and order are in the URL, and survive a reload.
    await page.getByLabel('Status').selectOption('open');
    await page.waitForURL(/[?&]status=open/);
    await page.reload();
    await expect(page.getByLabel('Status').inputValue()).resolves.toBe('open');
    // Pages of 50: forward by the API's cursor, back by the cursor remembered.
    const pages = page.getByRole('navigation', { name: 'Pages of incidents' });
    await pages.getByText('Incidents 1–50').waitFor();
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('Incidents 51–100').waitFor();
    expect(new URL(page.url()).searchParams.get('cursor')).toBeTruthy();
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('Incidents 101–121').waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(21);
    await expect(pages.getByRole('button', { name: 'Next page' }).isDisabled()).resolves.toBe(true);
    await pages.getByRole('button', { name: 'Previous page' }).click();
    await pages.getByText('Incidents 51–100').waitFor();
    await page.goBack();
    await pages.getByText('Incidents 101–121').waitFor();
    // Another order starts again from the first page.
    await page.getByLabel('Order').selectOption('oldest');
    await first.getByRole('link', { name: 'Noise119 (batch)', exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('cursor')).toBeNull();
    expect(new URL(page.url()).searchParams.get('status')).toBe('open');

    // The incident's page: named by its headline, its timeline in the chosen zone, relative to the first alert.
    await page.goto(`/incidents/${shopId}`);
    await page.getByRole('heading', { name: 'Checkout error ratio above 5%', level: 1 }).waitFor();
    await expect(page.title()).resolves.toBe('Checkout error ratio above 5% · Incident Investigation');
    await page.getByText('First alert: Disk on db-1 fills up').waitFor();
    const timeline = page
      .getByRole('heading', { name: `Timeline (${BROWSER_ZONE})` })
      .locator('..')
      .locator('li');
    await expect(timeline.allTextContents()).resolves.toEqual([
      expect.stringMatching(/^\S.* E[SD]T at the first alert firing DiskFilling: Disk on db-1 fills up/),
      expect.stringMatching(/2 h 50 min after the first alert firing CheckoutErrors: Checkout error ratio above 5%/),
    ]);
    await page.getByText('No investigation yet: open one to find the cause.').waitFor();

    // Merging by picking incidents, after a confirmation that says it cannot be undone.
    const merge = page.getByRole('heading', { name: 'Merge incidents into this one' }).locator('..');
    await merge.getByRole('checkbox', { name: /^Noise000 \(batch\)/ }).check();
    await merge.getByRole('checkbox', { name: /^Noise001 \(batch\)/ }).check();
    await merge.getByRole('button', { name: 'Merge 2 incidents into this one' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge 2 incidents into this one?' });
    await expect(dialog.textContent()).resolves.toContain('cannot be undone');
    await dialog.getByRole('button', { name: 'Merge them' }).click();
    await page.getByText('4 alerts').waitFor();
    const merged = await admin.get('/api/v1/incidents?status=merged', { headers: { 'x-svc-organization': 'triage' } });
    // Their alerts moved: a merged incident is named by its title.
    expect(merged.body.items.map((i: { headline: string }) => i.headline).sort()).toEqual(['Noise000', 'Noise001']);
    await expectAccessible(page);
  }, 120_000);

  it('shows the changes reported around an incident on its timeline, with their author, versions and links, and says when they cannot be read', async () => {
    const deliver = await organizationWithAlerts('deploys');
    const org = { 'x-svc-organization': 'deploys' };
    const integration = await post('/api/v1/integrations', { type: 'changes', name: 'Deploys' }, org);
    expect(integration.status).toBe(201);
    const report = async (body: object) => {
      const delivered = await new Client(baseUrl).request('POST', `/webhooks/v1/integrations/${integration.body.id}/change-events`, {
        body,
        headers: { 'x-svc-token': integration.body.webhookSecret },
        origin: false,
      });
      expect(delivered.status).toBe(202);
      return delivered.body;
    };
    const now = Date.now();
    const deployedAt = minutesAgo(20, now);
    // A deploy of checkout ten minutes before its alert, and one of another service that is not this incident's.
    const deploy = {
      id: 'd-1',
      summary: 'Deployed checkout 2.4.1',
      kind: 'deploy',
      service: 'checkout',
      environment: 'production',
      author: 'ada',
      versionBefore: '2.4.0',
      versionAfter: '2.4.1',
      timestamp: deployedAt,
      links: [{ href: 'https://ci.example.com/1', text: 'Build' }],
    };
    expect(await report(deploy)).toMatchObject({ accepted: 1 });
    expect(await report({ id: 'd-2', summary: 'Deployed search 7.0.0', kind: 'deploy', service: 'search', timestamp: minutesAgo(15, now) })).toMatchObject({
      accepted: 1,
    });
    const [incidentId] = await deliver({
      alerts: [
        {
          labels: { alertname: 'CheckoutErrors', severity: 'critical', service: 'checkout' },
          annotations: { summary: 'Checkout error ratio above 5%' },
          startsAt: minutesAgo(10, now),
        },
      ],
    });

    const { page } = await signedInPage();
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('deploys');
    await page.getByRole('link', { name: 'Checkout error ratio above 5%', exact: true }).waitFor();
    await page.goto(`/incidents/${incidentId}`);
    const timeline = page.getByRole('heading', { name: 'Timeline (UTC)' }).locator('..');
    const entries = timeline.locator('ol > li');
    // The change before the alert, oldest first, told apart from it: kind, summary, where, who, versions, link.
    await expect
      .poll(() => entries.allTextContents(), { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(
          /^\S.* UTC 10 min before the first alert change deploy: Deployed checkout 2\.4\.1checkout · production · by ada · version 2\.4\.0 → 2\.4\.1 · reported through generic · Build$/,
        ),
        expect.stringMatching(/ UTC at the first alert firing CheckoutErrors: Checkout error ratio above 5%/),
      ]);
    const change = entries.filter({ hasText: 'Deployed checkout 2.4.1' });
    await expect(change.textContent()).resolves.toContain(`${clockIn(deployedAt, 'UTC')} UTC`);
    await expect(change.getAttribute('class')).resolves.toBe('change');
    const build = change.getByRole('link', { name: 'Build', exact: true });
    await expect(build.getAttribute('href')).resolves.toBe('https://ci.example.com/1');
    await expect(build.getAttribute('target')).resolves.toBe('_blank');
    await expect(build.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expect(timeline.textContent()).resolves.not.toContain('Deployed search');
    await timeline.getByText(/^Changes shown: those recorded for checkout \(or naming no service\) from \S.* UTC\.$/).waitFor();
    await expectAccessible(page);

    // Changes that cannot be read: a note says so, and the alerts are on the timeline as before.
    const changesPath = /\/api\/v1\/(organizations\/[^/]+\/)?incidents\/[^/]+\/changes/;
    await page.route(changesPath, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'The database is unavailable' }) }),
    );
    await page.reload();
    await timeline.getByText('The changes around this incident could not be read (The database is unavailable).').waitFor();
    await expect.poll(() => entries.allTextContents()).toEqual([expect.stringMatching(/firing CheckoutErrors: Checkout error ratio above 5%/)]);
    await page.getByRole('heading', { name: 'Conclusion' }).waitFor();
    await page.unroute(changesPath);

    // More changes than a page (203 on inventory): the oldest 200 are shown, and how many were left out is said.
    const start = now - 50 * 60_000;
    const inventory = (from: number, count: number) => ({
      changes: Array.from({ length: count }, (_, n) => ({
        id: `inv-${from + n}`,
        summary: `Inventory flag ${from + n}`,
        kind: 'feature_flag',
        service: 'inventory',
        timestamp: new Date(start + (from + n) * 5_000).toISOString(),
      })),
    });
    expect(await report(inventory(0, 100))).toMatchObject({ accepted: 100 });
    expect(await report(inventory(100, 100))).toMatchObject({ accepted: 100 });
    expect(await report(inventory(200, 3))).toMatchObject({ accepted: 3 });
    const [inventoryId] = await deliver({ alerts: [{ labels: { alertname: 'InventoryStale', service: 'inventory' }, startsAt: minutesAgo(10, now) }] });
    expect(inventoryId).not.toBe(incidentId);
    await page.goto(`/incidents/${inventoryId}`);
    await timeline.getByText(/Only the first 200 are shown: 3 later changes were left out\.$/).waitFor();
    await expect(entries.filter({ hasText: 'Inventory flag' }).count()).resolves.toBe(200);
    await expect(entries.first().textContent()).resolves.toContain('feature flag: Inventory flag 0');
    await expect(timeline.textContent()).resolves.not.toContain('Inventory flag 200');
  }, 120_000);

  it('fits every page to a phone (390 px) and a desktop, long words and URLs wrapping; screenshots of the main pages', async () => {
    const deliver = await organizationWithAlerts('phone');
    const org = { 'x-svc-organization': 'phone' };
    const now = Date.now();
    const [shopId] = await deliver(shopAlerts(now));
    await deliver(noiseAlerts(3, now));
    const late = { labels: { alertname: 'BatchLate', job: 'batch' }, startsAt: minutesAgo(90, now) };
    const [resolvedId] = await deliver({ alerts: [late] });
    await deliver({ alerts: [{ ...late, status: 'resolved', endsAt: minutesAgo(60, now) }] });
    const unbroken = `https://grafana.example.org/d/${'checkout-errors-'.repeat(20)}`;
    expect((await post(`/api/v1/incidents/${resolvedId}/postmortem`, { impact: `Batch ran late; see ${unbroken}` }, org)).status).toBe(201);
    const investigation = await post('/api/v1/investigations', { incidentId: shopId }, org);
    expect(investigation.status).toBe(201);
    await investigationEnded(admin, investigation.body.id, { headers: org, timeoutMs: 90_000 });
    const conversation = await post('/api/v1/conversations', { subject: `Why ${'averyveryverylongword'.repeat(8)}?`, message: 'what happened?' }, org);
    expect(conversation.status).toBe(201);

    const paths = [
      '/incidents',
      `/incidents/${shopId}`,
      `/incidents/${resolvedId}/postmortem`,
      `/investigations/${investigation.body.id}`,
      '/conversations',
      `/conversations/${conversation.body.id}`,
      ...['integrations', 'members', 'sessions', 'api-tokens', 'policy', 'relays', 'deliveries', 'audit'].map((section) => `/admin/${section}`),
    ];
    const shots = process.env.CONSOLE_SCREENSHOTS;
    for (const width of [390, 1440]) {
      const { page } = await signedInPage(ADMIN.email, ADMIN.password, { width, height: 900 });
      await page.getByRole('combobox', { name: 'Organization' }).selectOption('phone');
      await page.getByRole('link', { name: 'Checkout error ratio above 5%' }).waitFor();
      const wide: string[] = [];
      for (const path of paths) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        // Every panel of the page has loaded (several may be loading at once).
        await expect
          .poll(
            () =>
              page
                .getByRole('status')
                .filter({ hasText: /^Loading/ })
                .count(),
            { timeout: 15_000 },
          )
          .toBe(0);
        const overflow = await horizontalOverflow(page);
        if (overflow > 0) wide.push(`${path}: ${overflow} px too wide`);
        if (shots && path === '/incidents') await page.screenshot({ path: `${shots}/incidents-${width}.png`, fullPage: true });
      }
      expect(wide, `at ${width} px`).toEqual([]);
      if (width === 390) {
        await page.goto('/incidents');
        await page.getByRole('link', { name: 'Checkout error ratio above 5%' }).waitFor();
        await expectAccessible(page);
      }
    }
  }, 180_000);

  it('opens an investigation and watches it conclude live, its citations jumping to the runs', async () => {
    contract.startTally();
    const incidentId = await (await checkoutAlert('investigated')).send();
    const { page, context } = await signedInPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Open investigation' }).click();
    await page.waitForURL(/\/investigations\/[0-9a-f-]{36}$/);
    const investigationId = page.url().split('/').at(-1)!;
    await page.locator('[data-connection="ended"]').waitFor({ timeout: 90_000 });
    await page.getByRole('heading', { name: 'Conclusion' }).waitFor();
    const shown = await shownSequences(page);
    expect(shown).toEqual(await streamedSequences(investigationId));
    await expect(page.locator('[data-sequence]').first().textContent()).resolves.toContain('started');
    await expect(page.locator('[data-sequence]').last().textContent()).resolves.toContain('concluded');
    await expect(page.getByText('needs confirmation').count()).resolves.toBeGreaterThan(0);

    const citation = page
      .getByRole('heading', { name: 'Findings' })
      .locator('..')
      .getByRole('link', { name: /^Tool run \d+$/ })
      .first();
    const ordinal = (await citation.textContent())!.slice(1);
    await citation.click();
    expect(new URL(page.url()).hash).toBe(`#run-${ordinal}`);
    await expect(page.locator(`#run-${ordinal}`).textContent()).resolves.toMatch(new RegExp(`^#${ordinal} prometheus\\.`));
    // The symptom is plotted (the alert's expression without its comparison, its threshold named),
    // then the cause's own series; the marked onset is the one the conclusion states.
    await page.locator('.plot canvas').first().waitFor({ timeout: 30_000 });
    const concluded = await admin.get(`/api/v1/investigations/${investigationId}`);
    const { plot } = concluded.body;
    expect(plot.symptom).toMatchObject({ comparison: '>', threshold: 1 });
    expect(concluded.body.runs.find((r: { ordinal: number }) => r.ordinal === plot.symptom.runOrdinal).arguments.query).toBe(
      'rate(app_http_errors_total[10s])',
    );
    expect(concluded.body.summary).toContain(`the condition began at ${plot.onsetAt}`);
    const symptom = page.getByRole('heading', { name: `Symptom: run #${plot.symptom.runOrdinal}` }).locator('..');
    await expect(symptom.textContent()).resolves.toContain('The alert fires while this is > 1/s (the dotted line).');
    await page.getByRole('heading', { name: `The cause's own series: run #${plot.cause.runOrdinal}` }).waitFor();
    const marked = (await page.getByRole('list', { name: 'Marked times' }).textContent())!;
    expect(marked).toContain(`Onset: the condition began (as the conclusion states): `);
    expect(marked).toMatch(new RegExp(`Onset: the condition began \\(as the conclusion states\\): [^(]*${clockIn(plot.onsetAt, 'UTC')} UTC`));
    expect(marked).toContain("The cause's time");
    // The values behind the chart, as a table in the zone shown, in their unit; the query in Prometheus.
    await symptom.getByText(`Values of run #${plot.symptom.runOrdinal} as a table`).click();
    const values = symptom.getByRole('table', { name: `Values of run #${plot.symptom.runOrdinal}` });
    await expect(values.getByRole('columnheader').first().textContent()).resolves.toBe('Time (UTC)');
    await expect(values.locator('tbody tr td').nth(1).textContent()).resolves.toMatch(/\/s$|^—$/);
    const link = await symptom.getByRole('link', { name: 'Open in Prometheus' }).getAttribute('href');
    expect(link!.startsWith(`${gate.url}/graph?`)).toBe(true);
    expect(new URL(link!).searchParams.get('g0.expr')).toBe('rate(app_http_errors_total[10s])');
    const plotted = plot.symptom.runOrdinal;
    const series = await admin.get(`/api/v1/investigations/${investigationId}/runs/${plotted}/series`);
    expect(series.status).toBe(200);
    expect(series.body).toMatchObject({ investigationId, ordinal: plotted, tool: 'prometheus.query_range' });
    expect(series.body.series.length).toBeGreaterThan(0);
    expect(series.body.series[0].times).toHaveLength(series.body.series[0].values.length);
    expect((await admin.get(`/api/v1/investigations/${investigationId}/runs/9999/series`)).status).toBe(404);
    expect((await admin.get(`/api/v1/investigations/${investigationId}/runs/0/series`)).body).toEqual({
      error: 'Invalid input: ordinal must be an integer from 1 to 2147483647',
    });
    expect((await admin.get(`/api/v1/investigations/${investigationId}/runs/99999999999/series`)).status).toBe(400);
    expect((await post('/api/v1/organizations', { id: 'elsewhere', displayName: 'Elsewhere' })).status).toBe(201);
    const elsewhere = await admin.get(`/api/v1/investigations/${investigationId}/runs/${plotted}/series`, { headers: { 'x-svc-organization': 'elsewhere' } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toEqual({ error: 'Investigation not found' });
    // The Admin's answers in this test, each checked against the OpenAPI document.
    expect(contract.tally.problems).toEqual([]);
    expect(contract.tally.checked).toBeGreaterThan(0);

    const report = page.getByRole('link', { name: 'Markdown report' });
    const download = await fetch(`${baseUrl}${await report.getAttribute('href')}`, {
      headers: { cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    expect(download.headers.get('content-type')).toContain('text/markdown');
    await expectAccessible(page);
    // The incident's page: the conclusion and its first action at the top, the change it examined on
    // the timeline; the list row says what was concluded.
    await page.goto(`/incidents/${incidentId}`);
    const top = page.getByRole('heading', { name: 'Conclusion' }).locator('..');
    await top.getByRole('link', { name: 'The investigation, with its evidence' }).waitFor();
    await expect(top.textContent()).resolves.toMatch(/(verified cause|supported explanation).*Next action: Roll back checkout/s);
    // The incident's recorded changes load after its investigations: until they answer, the timeline shows the examined build as the investigation stated it.
    await page.getByRole('link', { name: 'seen in its build series by an investigation', exact: true }).waitFor();
    const timeline = (await page
      .getByRole('heading', { name: /^Timeline/ })
      .locator('..')
      .textContent())!;
    expect(timeline).toContain('Investigation opened');
    // The new build the investigation examined is the rollout recorded from the metrics (by it, or by an earlier
    // investigation of the same build in this file): one change of the timeline, linked to the investigation that saw it.
    expect(timeline).toMatch(
      /change deploy: checkout started 1\.1\.0 \(was 1\.0\.0\), seen in its \*_build_info seriescheckout · version 1\.0\.0 → 1\.1\.0 · seen in its build series by an investigation · examined as a possible cause by the newest investigation/,
    );
    expect(timeline).not.toContain('The new build');
    const seenBy = page.getByRole('link', { name: 'seen in its build series by an investigation', exact: true });
    const seer = /\/investigations\/([0-9a-f-]{36})$/.exec((await seenBy.getAttribute('href')) ?? '');
    expect(seer).not.toBeNull();
    expect((await admin.get(`/api/v1/investigations/${seer![1]}`)).body.plot.changes).toEqual([
      expect.objectContaining({ summary: expect.stringContaining('version="1.1.0"'), changeId: expect.any(String) }),
    ]);
    await page.goto('/incidents');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Checkout is failing requests (investigated)', exact: true }) });
    await row
      .getByRole('cell')
      .last()
      .getByText(/^(verified cause|supported explanation)$/)
      .waitFor();
    // With its plots, the investigation and its incident fit a phone as well as a desktop.
    // `CONSOLE_SCREENSHOTS=docs/screenshots` refreshes their pictures in docs/.
    const shots = process.env.CONSOLE_SCREENSHOTS;
    const pages: Array<[string, string]> = [
      ['investigation', `/investigations/${investigationId}`],
      ['incident', `/incidents/${incidentId}`],
    ];
    for (const [name, path] of pages)
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        if (name === 'investigation') await page.locator('.plot canvas').nth(1).waitFor();
        else await page.getByRole('heading', { name: 'Conclusion' }).locator('..').getByRole('link').waitFor();
        const overflow = await horizontalOverflow(page);
        expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
        if (shots) await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
      }
  }, 120_000);

  it('resumes the live view from the last event after the API process is killed mid-stream', async () => {
    const incidentId = await (await checkoutAlert('resumed')).send();
    const { page } = await signedInPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Open investigation' }).waitFor();
    gate.close();
    await page.getByRole('button', { name: 'Open investigation' }).click();
    await page.waitForURL(/\/investigations\/[0-9a-f-]{36}$/);
    const investigationId = page.url().split('/').at(-1)!;
    // The worker waits on its first Prometheus read, and the page has what came before it.
    await until(() => gate.waiting > 0, 60_000, 'the first Prometheus read');
    await until(
      async () => (await shownSequences(page)).length > 0 && (await streamedSequences(investigationId)).length === (await shownSequences(page)).length,
      30_000,
      'the events so far on the page',
    );
    const before = await shownSequences(page);

    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGKILL');
    await exited;
    try {
      await page.locator('[data-connection="reconnecting"]').waitFor({ timeout: 30_000 });
    } finally {
      // The other tests need the API whatever happened here.
      api = await startApiProcess(env, baseUrl);
      gate.open();
    }
    await page.locator('[data-connection="ended"]').waitFor({ timeout: 90_000 });

    const after = await shownSequences(page);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after).toEqual(await streamedSequences(investigationId));
    await expect(page.locator('[data-sequence]').last().textContent()).resolves.toContain('concluded');
  }, 120_000);

  it('asks a question in a conversation, shows the question the service asks back, and answers it', async () => {
    const { page } = await signedInPage();
    await page.getByRole('link', { name: 'Conversations' }).click();
    await page.getByRole('heading', { name: 'Ask a question' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Subject').fill('Payments');
    await page.getByLabel('Question', { exact: true }).fill('Is paymnts healthy?');
    await page.getByRole('button', { name: 'Start conversation' }).click();
    await page.waitForURL(/\/conversations\/[0-9a-f-]{36}$/);
    await page.getByText(/asks you:/).waitFor({ timeout: 90_000 });
    await expect(page.locator('.bubble.question').textContent()).resolves.toContain('"paymnts"');
    await expectAccessible(page);

    await page.getByLabel('Your answer to the question').fill('I meant the checkout service: is checkout healthy?');
    await page.getByRole('button', { name: 'Send' }).click();
    await until(
      async () => (await page.locator('.bubble.assistant').count()) === 2 && (await page.getByText(/asks you:/).count()) === 0,
      90_000,
      'the answer to the reply',
    );
    await expect(page.locator('.bubble.user').count()).resolves.toBe(2);
    await expect(page.getByLabel('Message', { exact: true }).isVisible()).resolves.toBe(true);
  }, 120_000);

  it("asks about an incident from its page, and shows the answer's table with its citations jumping to the runs", async () => {
    const incidentId = await (await checkoutAlert('asked about')).send();
    const { page } = await signedInPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('heading', { name: 'Ask about this incident' }).waitFor();
    await page.getByLabel('Question about this incident').fill('which pods run checkout, and which version?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(/\/conversations\/[0-9a-f-]{36}$/);
    const answer = page.locator('.bubble.assistant').first();
    await answer.locator('table').waitFor({ timeout: 90_000 });
    // The breakdown is a table, not Markdown source; the statement cites its run.
    await expect(answer.locator('th').allTextContents()).resolves.toEqual(['pod', 'node', 'version']);
    await expect(answer.locator('.answer').textContent()).resolves.toMatch(/^1 pod\(s\) of checkout at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \[#\d+\]/);
    await expect(answer.textContent()).resolves.not.toContain('|---|');
    await expectAccessible(page);
    const citation = answer.getByRole('link', { name: /^Tool run \d+$/ });
    const ordinal = (await citation.textContent())!.slice(1);
    await citation.click();
    await page.waitForURL(new RegExp(`/investigations/[0-9a-f-]{36}#run-${ordinal}$`));
    await page.locator(`#run-${ordinal}`).waitFor();
    await expect(page.locator(`#run-${ordinal}`).textContent()).resolves.toMatch(new RegExp(`^#${ordinal} prometheus\\.query`));
    await expect(page.locator(`#run-${ordinal}`).evaluate((element) => element === element.ownerDocument.activeElement)).resolves.toBe(true);

    // The incident's page lists the conversation.
    await page.goto(`/incidents/${incidentId}`);
    await page
      .getByRole('list', { name: 'Conversations about this incident' })
      .getByRole('link', { name: 'Checkout is failing requests (asked about)' })
      .waitFor();
  }, 120_000);

  it("shows a run's log templates as a table: counts before and after the onset, and each one's minutes around it", async () => {
    // An Organization of the test's own, whose logs are in a Loki: checkout cannot reach inventory-db from 10 s after the onset.
    const deliver = await organizationWithAlerts('logs');
    const org = { 'x-svc-organization': 'logs' };
    const end = new Date();
    const onset = new Date(end.getTime() - 10 * 60_000);
    const loki = await LokiStandIn.start({ entries: shopLogs(onset, end) });
    try {
      expect((await post('/api/v1/integrations', { type: 'loki', name: 'Shop logs', config: { baseUrl: loki.url } }, org)).status).toBe(201);
      const [incidentId] = await deliver({ alerts: [{ ...ALERT, labels: { ...ALERT.labels, namespace: 'shop' }, startsAt: onset.toISOString() }] });
      const opened = await post('/api/v1/conversations', { subject: 'The logs', incidentId, message: 'what do the logs of checkout say?' }, org);
      expect(opened.status).toBe(201);
      const investigationId = opened.body.turn.investigationId;
      const done = await investigationEnded(admin, investigationId, { headers: org, timeoutMs: 60_000 });
      const read = done.runs.find((r: { tool: string }) => r.tool === 'loki.log_patterns');
      expect(read).toMatchObject({ outcome: 'succeeded' });

      const { page } = await signedInPage();
      await page.getByRole('combobox', { name: 'Organization' }).selectOption('logs');
      await page.goto(`/investigations/${investigationId}`);
      await page.getByText(`Log templates of run #${read.ordinal}`).click();
      const table = page.getByRole('table', { name: `Log templates of run #${read.ordinal}` });
      await table.waitFor();
      await expect(table.locator('th').allTextContents()).resolves.toEqual([
        'Template',
        'Since the onset',
        'Before',
        'After',
        'Per minute, 10 min each side of the onset',
        expect.stringMatching(/^First seen \(.+\)$/),
      ]);
      const first = table.locator('tbody tr').first();
      await expect(first.locator('td').first().textContent()).resolves.toBe(
        'level=error msg="error connecting to inventory-db:<port>: connection refused" attempt=<num>',
      );
      await expect(first.locator('td').nth(1).textContent()).resolves.toBe('new: began at the onset');
      await expect(first.locator('td').nth(2).textContent()).resolves.toMatch(/^0 \(0\/min\)$/);
      // None in the ten minutes before the onset's minute, four a minute from it.
      await expect(first.getByRole('img').getAttribute('aria-label')).resolves.toMatch(
        /^Lines per minute: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 before the onset; \d, 4, 4/,
      );
      // The question reads the lines that report trouble: the warning written all along is not among them.
      await expect(table.locator('tbody tr').count()).resolves.toBe(1);
      await expectAccessible(page);
    } finally {
      await loki.close();
    }
  }, 120_000);

  it('shows on the incident timeline the Kubernetes events read when the incident opened', async () => {
    // An Organization of the test's own with a cluster whose checkout pod crash-loops after an OOM kill.
    const deliver = await organizationWithAlerts('cluster');
    const org = { 'x-svc-organization': 'cluster' };
    const onset = new Date(Date.now() - 20 * 60_000);
    const k8s = await KubernetesStandIn.start({
      accounts: { 'cluster-reader': { user: 'system:serviceaccount:observability:svc-reader', rules: READER_RULES } },
    });
    try {
      shopCluster(k8s, onset);
      const cluster = await post(
        '/api/v1/integrations',
        { type: 'kubernetes', name: 'Shop cluster', config: { server: k8s.url, namespaces: ['shop'] }, credentials: { bearerToken: 'cluster-reader' } },
        org,
      );
      expect(cluster.status).toBe(201);
      const [incidentId] = await deliver({
        alerts: [{ labels: { alertname: 'CheckoutDown', namespace: 'shop', pod: 'checkout-5b6c4d-x7k2p' }, startsAt: onset.toISOString() }],
      });
      await until(
        async () => (await admin.get(`/api/v1/incidents/${incidentId}/kubernetes-snapshot`, { headers: org })).body?.status === 'taken',
        30_000,
        'the snapshot of the new incident',
      );

      const { page } = await signedInPage();
      await page.getByRole('combobox', { name: 'Organization' }).selectOption('cluster');
      await page.goto(`/incidents/${incidentId}`);
      const timeline = page.getByRole('heading', { name: /^Timeline/ }).locator('..');
      const backOff = timeline.locator('li.kubernetes', { hasText: 'BackOff' });
      await backOff.waitFor();
      await expect(backOff.textContent()).resolves.toMatch(
        /warning Kubernetes BackOff on Pod\/checkout-5b6c4d-x7k2p ×9: Back-off restarting failed container app in pod checkout-5b6c4d-x7k2p_shoplast .* · read from the cluster when the incident opened$/,
      );
      await expect(timeline.locator('li.kubernetes', { hasText: 'Unhealthy' }).textContent()).resolves.toContain(
        'Readiness probe failed: HTTP probe failed with statuscode: 503',
      );
      // The Deployment's scaling (a Normal event of the pod's owner) is there too, before them.
      const kinds = await timeline.locator('li.kubernetes').evaluateAll((items) => items.map((i) => i.textContent?.match(/Kubernetes (\w+)/)?.[1]));
      expect(kinds).toEqual(['ScalingReplicaSet', 'BackOff', 'Unhealthy']);
      await expectAccessible(page);
    } finally {
      await k8s.stop();
    }
  }, 120_000);

  it('corrects one postmortem field with If-Match, and the correction survives regeneration', async () => {
    const alert = await checkoutAlert('postmortem');
    const incidentId = await alert.send();
    expect(await alert.send('resolved')).toBe(incidentId);
    const { page } = await signedInPage();
    await page.goto(`/incidents/${incidentId}`);
    await page.getByRole('link', { name: 'Postmortem' }).click();
    await page.getByRole('button', { name: 'Write the first draft' }).click();
    await page.getByText('revision 1').waitFor();
    await expect(page.locator('mark.needs-input').count()).resolves.toBeGreaterThan(0);
    await expectAccessible(page);

    const patches: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request);
    });
    await page.getByRole('button', { name: 'Correct impact' }).click();
    await page.getByRole('textbox', { name: 'Impact' }).fill('Checkout failed one request in eight for twelve minutes.');
    await page.getByRole('button', { name: 'Save impact' }).click();
    await page.getByText('revision 2').waitFor();
    expect(patches).toHaveLength(1);
    expect(patches[0].postDataJSON()).toEqual({ impact: 'Checkout failed one request in eight for twelve minutes.' });
    expect(patches[0].headers()['if-match']).toBe('"1"');

    await page.getByRole('button', { name: 'Regenerate from the records' }).click();
    await page.getByText('revision 3').waitFor();
    const impact = page.getByRole('heading', { name: /^Impact/ }).locator('..');
    await expect(impact.textContent()).resolves.toContain('Checkout failed one request in eight for twelve minutes.');
    await expect(impact.textContent()).resolves.toContain('corrected by a person');
    // Reviewing asks first, naming what still needs a person; keeping it changes nothing.
    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    const review = page.getByRole('dialog', { name: 'Mark reviewed?' });
    await expect(review.textContent()).resolves.toMatch(/still says? "Needs human input\." The postmortem will be marked reviewed by you at revision 3\./);
    await expect(review.textContent()).resolves.not.toContain('Impact');
    await review.getByRole('button', { name: 'Keep it' }).click();
    expect((await admin.get(`/api/v1/incidents/${incidentId}/postmortem`)).body.status).toBe('draft');
    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    await review.getByRole('button', { name: 'Mark it reviewed' }).click();
    await page.getByText('reviewed revision 3').waitFor();
    // A reviewed postmortem is not regenerated (409): the console does not offer it.
    await expect(page.getByRole('button', { name: 'Regenerate from the records' }).count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.not.toMatch(/Postmortem: Postmortem/);
  }, 120_000);

  it('keeps what was typed when someone saved the postmortem meanwhile, and corrects every field: action items, timeline, root causes', async () => {
    const alert = await checkoutAlert('conflict');
    const incidentId = await alert.send();
    expect(await alert.send('resolved')).toBe(incidentId);
    const postmortem = `/api/v1/incidents/${incidentId}/postmortem`;
    expect((await post(postmortem)).status).toBe(201);
    const { page } = await signedInPage();
    await page.goto(`/incidents/${incidentId}/postmortem`);
    await page.getByText('revision 1').waitFor();

    // Typing while someone else saves the same field: the save is refused (412), the typed text stays,
    // their version is shown beside it, and the merged text is saved over the new revision.
    await page.getByRole('button', { name: 'Correct impact' }).click();
    await page.getByRole('textbox', { name: 'Impact' }).fill('Mine: checkout failed for twelve minutes.');
    expect((await admin.patch(postmortem, { impact: 'Theirs: one request in eight failed.' }, { origin: baseUrl })).body.revision).toBe(2);
    await page.getByRole('button', { name: 'Save impact' }).click();
    await page.getByText('What you typed is kept').waitFor();
    await expect(page.getByRole('textbox', { name: 'Impact' }).inputValue()).resolves.toBe('Mine: checkout failed for twelve minutes.');
    await expect(page.getByRole('group', { name: 'Impact as saved meanwhile' }).textContent()).resolves.toContain('Theirs: one request in eight failed.');
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Impact' }).fill('Checkout failed for twelve minutes: one request in eight.');
    await page.getByRole('button', { name: 'Save impact' }).click();
    await page.getByText('revision 3').waitFor();
    expect((await admin.get(postmortem)).body.impact).toBe('Checkout failed for twelve minutes: one request in eight.');

    // An action item with its owner and deadline.
    await page.getByRole('button', { name: 'Correct action items' }).click();
    const items = page.getByRole('form', { name: 'Correct action items' });
    const before = (await admin.get(postmortem)).body.actionItems.length;
    await items.getByRole('button', { name: 'Add an action item' }).click();
    const added = items.getByRole('group', { name: `Action item ${before + 1}` });
    await added.getByLabel('Action').fill('Add a canary stage to checkout deploys');
    await added.getByLabel('Owner').fill('Dana');
    await added.getByLabel('Deadline').fill('2026-12-15');
    await added.getByLabel('How to verify it').fill('A failing build stops at the canary');
    await items.getByRole('button', { name: 'Save action items' }).click();
    await page.getByText('revision 4').waitFor();
    const corrected = (await admin.get(postmortem)).body;
    expect(corrected.actionItems.at(-1)).toMatchObject({
      title: 'Add a canary stage to checkout deploys',
      owner: 'Dana',
      deadline: '2026-12-15',
      verification: 'A failing build stops at the canary',
    });
    expect(corrected.actionItems).toHaveLength(before + 1);

    // A timeline entry, its time read in the zone chosen (New York, five hours behind UTC in November).
    await page.getByLabel('Times in').selectOption('local');
    await page.getByRole('button', { name: 'Correct timeline' }).click();
    const timeline = page.getByRole('form', { name: 'Correct timeline' });
    const entries = corrected.timeline.length;
    await timeline.getByRole('button', { name: 'Add a timeline entry' }).click();
    const entry = timeline.getByRole('group', { name: `Timeline entry ${entries + 1}` });
    await entry.getByLabel(`When (${BROWSER_ZONE})`).fill('2026-11-20T05:05');
    await entry.getByLabel('What happened').fill('Rolled checkout back to 1.0.0');
    await timeline.getByRole('button', { name: 'Save timeline' }).click();
    await page.getByText('revision 5').waitFor();
    const withEntry = (await admin.get(postmortem)).body;
    expect(withEntry.timeline).toHaveLength(entries + 1);
    expect(withEntry.timeline).toContainEqual(expect.objectContaining({ at: '2026-11-20T10:05:00.000000Z', description: 'Rolled checkout back to 1.0.0' }));
    // The entries it had keep their times and sources.
    expect(
      withEntry.timeline.filter((t: { description: string }) => t.description !== 'Rolled checkout back to 1.0.0').map((t: { at: string }) => t.at),
    ).toEqual(corrected.timeline.map((t: { at: string }) => t.at));

    // The root causes, one statement replaced.
    await page.getByRole('button', { name: 'Correct root causes' }).click();
    const causes = page.getByRole('form', { name: 'Correct root causes' });
    if ((await causes.getByRole('group').count()) === 0) await causes.getByRole('button', { name: 'Add a root cause' }).click();
    await causes.getByRole('group', { name: 'Root cause 1' }).getByLabel('Statement').fill('Version 1.1.0 of checkout failed one request in eight.');
    await causes.getByRole('button', { name: 'Save root causes' }).click();
    await page.getByText('revision 6').waitFor();
    const final = (await admin.get(postmortem)).body;
    expect(final.rootCauses[0].statement).toBe('Version 1.1.0 of checkout failed one request in eight.');
    expect(final.correctedFields).toEqual(expect.arrayContaining(['impact', 'actionItems', 'timeline', 'rootCauses']));
    await expectAccessible(page);
  }, 120_000);

  it('offers a Viewer no administration and no actions, only what the role may read', async () => {
    // An incident with an investigation (ended) and a postmortem reviewed at revision 3, made through the API.
    const alert = await checkoutAlert('viewed');
    const incidentId = await alert.send();
    const opened = await post('/api/v1/investigations', { incidentId });
    expect(opened.status).toBe(201);
    await investigationEnded(admin, opened.body.id, { timeoutMs: 90_000 });
    expect(await alert.send('resolved')).toBe(incidentId);
    const postmortem = `/api/v1/incidents/${incidentId}/postmortem`;
    expect((await post(postmortem)).status).toBe(201);
    expect((await admin.patch(postmortem, { impact: 'Checkout failed for twelve minutes.' }, { origin: baseUrl })).body.revision).toBe(2);
    expect((await post(`${postmortem}/regenerate`)).body.revision).toBe(3);
    expect((await post(`${postmortem}/review`)).body).toMatchObject({ status: 'reviewed', revision: 3 });

    const created = await post('/api/v1/local-users', { email: 'vera@example.com', name: 'Vera Viewer', password: 'a long enough password', role: 'viewer' });
    expect(created.status).toBe(201);
    const { page: viewer } = await signedInPage('vera@example.com', 'a long enough password');
    await viewer.goto(`/incidents/${incidentId}`);
    await viewer.getByRole('heading', { name: /^Timeline/ }).waitFor();
    await viewer.getByRole('heading', { name: 'Investigations' }).locator('..').getByRole('link').first().waitFor();
    await expect(viewer.getByRole('button').allTextContents()).resolves.toEqual(['Sign out']);
    // What a Viewer may read is there, without a control that would change anything.
    await viewer.getByRole('link', { name: 'Administration' }).click();
    for (const section of ['Integrations', 'Members', 'Sessions', 'API tokens', 'Policy', 'Relays', 'Webhook deliveries', 'Audit events']) {
      await viewer.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: section }).click();
      await viewer.getByRole('heading', { name: section === 'Sessions' ? 'Your sessions' : section, level: 2 }).waitFor();
      await viewer.getByRole('status').filter({ hasText: 'Loading…' }).waitFor({ state: 'detached' });
      await expect(viewer.getByRole('button').allTextContents(), section).resolves.toEqual(['Sign out']);
      await expect(viewer.getByRole('textbox').count(), section).resolves.toBe(section === 'Audit events' ? 3 : 0);
    }
    await viewer.goto(`/incidents/${incidentId}/postmortem`);
    await viewer.getByText('reviewed revision 3').waitFor();
    await expect(viewer.getByRole('button').allTextContents()).resolves.toEqual(['Sign out']);
    expect(await seriousViolations(viewer)).toEqual([]);
  }, 180_000);

  it("lets an Admin create an integration from the catalog's schema and copy its webhook secret, shown once", async () => {
    // An Organization with no incidents, for the switcher.
    expect((await post('/api/v1/organizations', { id: 'other', displayName: 'Other' })).status).toBe(201);
    const { page } = await signedInPage();
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('table', { name: 'Integrations' }).waitFor();
    await expectAccessible(page);
    await page.getByLabel('Type').selectOption('generic');
    await page.getByLabel('Name', { exact: true }).fill('Billing alerts');
    await page.getByRole('button', { name: 'Create integration' }).click();
    const secret = (await page.locator('[data-secret]').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy webhook secret' }).click();
    await page.getByText('Copied').waitFor();
    await expect(
      page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText: () => Promise<string> } } }).navigator.clipboard.readText()),
    ).resolves.toBe(secret);
    await expectAccessible(page);

    // The secret works, and the console never shows it again.
    const integrations = await admin.get('/api/v1/integrations?type=generic');
    const billing = integrations.body.items.find((i: { name: string }) => i.name === 'Billing alerts');
    const billingDown = await sendAlert({ labels: { alertname: 'BillingDown' } }, secret, billing.id);
    expect(billingDown.status).toBe(202);
    const billingIncident = await admin.get(`/api/v1/incidents/${billingDown.body.incidentIds[0]}`);
    await page.reload();
    await page.getByRole('table', { name: 'Integrations' }).waitFor();
    await expect(page.content()).resolves.not.toContain(secret);
    await expect(page.locator('[data-secret]').count()).resolves.toBe(0);

    // The Organization switcher: the other Organization (created above) has no incidents; back to
    // Acme, which has the incident of the alert just sent.
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('other');
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    await page.getByText('Nothing here yet.').waitFor();
    await page.getByRole('combobox', { name: 'Organization' }).selectOption('acme');
    await page.getByRole('link', { name: billingIncident.body.title, exact: true }).waitFor();

    // Rotating the secret asks first and says what will happen; keeping it changes nothing.
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.getByRole('button', { name: 'Rotate secret of Billing alerts' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate secret of Billing alerts?' });
    await expect(dialog.textContent()).resolves.toContain('stops working at once');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
    expect((await sendAlert({ labels: { alertname: 'BillingSlow' } }, secret, billing.id)).status).toBe(202);
    await page.getByRole('button', { name: 'Rotate secret of Billing alerts' }).click();
    await dialog.getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = (await page.locator('[data-secret]').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect((await sendAlert({ labels: { alertname: 'BillingSlow' } }, secret, billing.id)).status).toBe(401);
    expect((await sendAlert({ labels: { alertname: 'BillingSlow' } }, rotated, billing.id)).status).toBe(202);

    // The audit log's filters are in the URL: the integration created above is there, and a reload keeps the filter.
    await page.goto('/admin/audit');
    await page.getByLabel('Action').fill('integration.create');
    await page.getByLabel('Action').press('Enter');
    await page.waitForURL(/[?&]action=integration\.create/);
    await page.reload();
    const audit = page.getByRole('table', { name: 'Audit events' });
    await audit.getByRole('cell', { name: `integration ${billing.id}` }).waitFor();
    await expect(audit.locator('tbody tr td:nth-child(3)').allTextContents()).resolves.toEqual(expect.arrayContaining(['integration.create']));
    expect(new Set(await audit.locator('tbody tr td:nth-child(3)').allTextContents())).toEqual(new Set(['integration.create']));
    await expect(page.getByLabel('Action').inputValue()).resolves.toBe('integration.create');
  }, 120_000);
});
