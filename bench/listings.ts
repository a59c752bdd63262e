import { Client } from 'pg';
import { performance } from 'node:perf_hooks';
import { apiJson, percentile } from './support';

/**
 * Listings deep into an Organization with a million rows of each kind: its incidents, one
 * incident's alert events, its audit events. Page 10,000 (default page size) is reached by
 * following the cursors as a client does, then page 1 and page 10,000 are read in turns, so both
 * see the same moments of the machine. Keyset pages cost the same however deep they are; the
 * ratio says whether they do.
 */
const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** `--listing-rows=N`: rows of each kind (default 1,000,000). */
const ROWS = Number(arg('listing-rows') ?? 1_000_000);
/** `--listing-page=N`: the deep page read (default 10,000). */
const DEEP_PAGE = Number(arg('listing-page') ?? 10_000);
/** `--listing-reads=N`: reads of each page, in turns (default 200). */
const READS = Number(arg('listing-reads') ?? 200);
const PAGE_SIZE = 50;
/** The page size the walk to the deep page uses (the largest a client may ask). */
const WALK_SIZE = 200;
const ORGANIZATION = 'bench-scale';

export interface ListingsContext {
  port: number;
  cookie: string;
  databaseUrl: string;
}

/** A page: the audit listing names its items `events`, the others `items`. */
async function getJson(port: number, cookie: string, path: string): Promise<{ items: unknown[]; next: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie, 'x-svc-organization': ORGANIZATION } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  const page = JSON.parse(text) as { items?: unknown[]; events?: unknown[]; next: string | null };
  return { items: page.items ?? page.events ?? [], next: page.next };
}

/** The Organization and one integration (through the API), then ROWS incidents, ROWS alert events on one incident, ROWS audit events. */
async function seed(port: number, cookie: string, databaseUrl: string): Promise<{ incidentId: string }> {
  await apiJson(port, cookie, 'POST', '/api/v1/organizations', { id: ORGANIZATION, displayName: 'Bench at scale' }, [201]);
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/integrations`, {
    method: 'POST',
    headers: { cookie, origin: `http://127.0.0.1:${port}`, 'content-type': 'application/json', 'x-svc-organization': ORGANIZATION },
    body: JSON.stringify({ type: 'generic', name: 'Bench at scale' }),
  });
  if (created.status !== 201) throw new Error(`creating the integration answered ${created.status}: ${await created.text()}`);
  const integrationId = ((await created.json()) as { id: string }).id;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // One in fifty still open; one second apart, newest first.
    await db.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at, resolved_at, alert_count, firing_count)
       SELECT $1, gen_random_uuid(), $2, 'group-' || n, CASE WHEN n % 50 = 0 THEN 'open' ELSE 'resolved' END,
              'HighErrorRate on checkout-' || (n % 40), jsonb_build_object('alertname', 'HighErrorRate', 'service', 'checkout-' || (n % 40)),
              now() - n * interval '1 second', CASE WHEN n % 50 = 0 THEN NULL ELSE now() - n * interval '1 second' + interval '10 minutes' END, 1, 0
         FROM generate_series(1, $3) n`,
      [ORGANIZATION, integrationId, ROWS],
    );
    const incidentId = (
      (await db.query(`SELECT id FROM incidents WHERE organization_id = $1 ORDER BY opened_at DESC LIMIT 1`, [ORGANIZATION])).rows as { id: string }[]
    )[0].id;
    await db.query(
      `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, ends_at, phase_at, received_at)
       SELECT $1, gen_random_uuid(), $2, $3, gen_random_uuid(), 'fp-' || n, CASE WHEN n % 2 = 0 THEN 'resolved' ELSE 'firing' END,
              jsonb_build_object('alertname', 'HighErrorRate', 'service', 'checkout', 'pod', 'checkout-' || n),
              jsonb_build_object('summary', 'Error rate above 5%'), now() - interval '2 hours', NULL, now() - n * interval '1 millisecond', now() - n * interval '1 millisecond'
         FROM generate_series(1, $4) n`,
      [ORGANIZATION, incidentId, integrationId, ROWS],
    );
    await db.query(
      `INSERT INTO audit_events (organization_id, id, occurred_at, actor_kind, actor_id, actor_name, action, target_kind, target_id, outcome, source_address, request_id, detail)
       SELECT $1, gen_random_uuid(), now() - (n * interval '1 millisecond'), 'user', gen_random_uuid()::text, 'Bench User', 'member.role_change', 'membership',
              gen_random_uuid()::text, 'allowed', '192.0.2.' || (n % 250), gen_random_uuid()::text, jsonb_build_object('before', 'viewer', 'after', 'editor', 'n', n)
         FROM generate_series(1, $2) n`,
      [ORGANIZATION, ROWS],
    );
    await db.query('ANALYZE incidents, alert_events, audit_events');
    return { incidentId };
  } finally {
    await db.end();
  }
}

/** The cursor of page `page` (of PAGE_SIZE), reached by following cursors, WALK_SIZE rows at a time. */
async function cursorOfPage(port: number, cookie: string, path: string, page: number): Promise<string> {
  const separator = path.includes('?') ? '&' : '?';
  let skip = (page - 1) * PAGE_SIZE;
  let cursor: string | null = null;
  while (skip > 0) {
    const limit = Math.min(WALK_SIZE, skip);
    const answer = await getJson(port, cookie, `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (!answer.next) throw new Error(`${path} ends before page ${page}`);
    cursor = answer.next;
    skip -= limit;
  }
  return cursor!;
}

export async function listingsSection({ port, cookie, databaseUrl }: ListingsContext): Promise<void> {
  const seeding = performance.now();
  const { incidentId } = await seed(port, cookie, databaseUrl);
  console.log(
    `\nListings at scale: ${ROWS.toLocaleString('en-US')} incidents, alert events of one incident, and audit events in one Organization (seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s);` +
      ` page 1 against page ${DEEP_PAGE.toLocaleString('en-US')} (${PAGE_SIZE} a page, reached by following cursors), ${READS} reads of each in turns, one at a time\n`,
  );
  console.log('| listing | page 1 p50 ms | page 1 p99 ms | deep p50 ms | deep p99 ms | ratio deep/page 1 (p50) | items |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const listings = [
    ['GET /api/v1/incidents', '/api/v1/incidents'],
    ['GET /api/v1/incidents/{i}/alert-events', `/api/v1/incidents/${incidentId}/alert-events`],
    ['GET /api/v1/audit-events', '/api/v1/audit-events'],
  ] as const;
  for (const [name, path] of listings) {
    const cursor = await cursorOfPage(port, cookie, path, DEEP_PAGE);
    const separator = path.includes('?') ? '&' : '?';
    const first = `${path}${separator}limit=${PAGE_SIZE}`;
    const deep = `${first}&cursor=${encodeURIComponent(cursor)}`;
    const timed = async (target: string) => {
      const started = performance.now();
      const answer = await getJson(port, cookie, target);
      return { ms: performance.now() - started, items: answer.items.length };
    };
    for (let i = 0; i < 10; i++) await Promise.all([timed(first), timed(deep)]);
    const firstTimes: number[] = [];
    const deepTimes: number[] = [];
    let items = 0;
    for (let i = 0; i < READS; i++) {
      const order = i % 2 === 0 ? [first, deep] : [deep, first];
      for (const target of order) {
        const { ms, items: n } = await timed(target);
        (target === first ? firstTimes : deepTimes).push(ms);
        if (target === deep) items = n;
      }
    }
    firstTimes.sort((a, b) => a - b);
    deepTimes.sort((a, b) => a - b);
    const [f50, f99, d50, d99] = [percentile(firstTimes, 50), percentile(firstTimes, 99), percentile(deepTimes, 50), percentile(deepTimes, 99)];
    console.log(`| ${name} | ${f50.toFixed(2)} | ${f99.toFixed(2)} | ${d50.toFixed(2)} | ${d99.toFixed(2)} | ${(d50 / f50).toFixed(2)} | ${items} |`);
  }
}
