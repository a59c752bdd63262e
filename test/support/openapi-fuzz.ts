import type { OpenApiContract } from './openapi-contract';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed from its printed seed. */
export class Random {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';

function word(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += LOWER[random.int(0, LOWER.length - 1)];
  return out;
}

export function randomUuid(random: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => random.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-7${hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
}

/**
 * Values from the JSON Schemas of an OpenAPI document: `valid` ones within every declared bound,
 * and `invalid` ones that break one rule (wrong type, null, NUL or a lone surrogate, a huge
 * string, one past a length or range bound, a bad uuid or date, deep nesting, an unknown or a
 * missing property), the hostile input a client may send. Strings that look like URLs only ever
 * name the loopback address, so a fuzzed service never contacts anything else.
 */
export class SchemaValues {
  constructor(
    private readonly document: { components: { schemas: Record<string, any> } },
    private readonly random: Random,
    /** Real values for named things: `organization`, `email`, and ids by property name. */
    private readonly known: Record<string, string> = {},
  ) {}

  resolve(schema: any): any {
    let current = schema ?? {};
    for (let i = 0; i < 20 && current.$ref; i++) current = this.document.components.schemas[String(current.$ref).split('/').pop()!] ?? {};
    if (current.allOf?.length === 1) return this.resolve({ ...current, allOf: undefined, ...this.resolve(current.allOf[0]) });
    return current;
  }

  valid(input: any, name = '', depth = 0): any {
    const schema = this.resolve(input);
    const r = this.random;
    if (schema.anyOf || schema.oneOf) return this.valid(r.pick(schema.anyOf ?? schema.oneOf), name, depth);
    if (schema.enum) return r.pick(schema.enum.filter((v: unknown) => v !== null));
    if (name in this.known && (schema.type === 'string' || schema.type === undefined)) return this.known[name];
    switch (schema.type) {
      case 'string':
        return this.validString(schema, name);
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? 0;
        const max = schema.maximum ?? min + 1000;
        const value = r.int(Math.ceil(min), Math.floor(max));
        return schema.type === 'number' && r.chance(0.3) ? Math.min(max, value + 0.5) : value;
      }
      case 'boolean':
        return r.chance(0.5);
      case 'array': {
        const count = r.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + 3));
        return Array.from({ length: count }, () => this.valid(schema.items, name, depth + 1));
      }
      case 'object':
      case undefined: {
        if (!schema.properties && schema.type === undefined) return r.pick(['text', 1, true]);
        const out: Record<string, unknown> = {};
        for (const [key, property] of Object.entries<any>(schema.properties ?? {})) {
          if ((schema.required ?? []).includes(key) || (depth < 4 && r.chance(0.5))) out[key] = this.valid(property, key, depth + 1);
        }
        if (!schema.properties && schema.additionalProperties) {
          const value = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : { type: 'string', maxLength: 20 };
          for (let i = r.int(schema.minProperties ?? 0, Math.max(schema.minProperties ?? 0, 2)); i > 0; i--) out[word(r, 6)] = this.valid(value, '', depth + 1);
        }
        return out;
      }
      default:
        return null;
    }
  }

  private validString(schema: any, name: string): string {
    const r = this.random;
    switch (schema.format) {
      case 'uuid':
        return this.known[name] ?? randomUuid(r);
      case 'date-time':
        return new Date(Date.now() + r.int(-30, 30) * 86_400_000).toISOString();
      case 'email':
        return `${word(r, 8)}@example.com`;
      case 'uri':
      case 'url':
        return `http://127.0.0.1:9/${word(r, 4)}`;
    }
    if (/email/i.test(name)) return `${word(r, 8)}@example.com`;
    if (/url$/i.test(name)) return `http://127.0.0.1:9/${word(r, 4)}`;
    if (schema.pattern) return this.known.organization ?? word(r, 8);
    const min = schema.minLength ?? 1;
    const max = Math.min(schema.maxLength ?? 24, min + 24);
    return word(r, r.int(min, Math.max(min, max)));
  }

  /** A value that breaks the schema (or, for a schema that allows anything, a hostile one). */
  invalid(input: any, depth = 0): any {
    const schema = this.resolve(input);
    const r = this.random;
    const hostile = [
      () => null,
      () => `bad\u0000value`,
      () => `lone \ud800 surrogate`,
      () => 'x'.repeat(r.pick([257, 1025, 70_000])),
      () => nest(r.pick([65, 70, 200])),
      () => r.pick([true, -1, 1.5, 1e308, [], {}, '']),
    ];
    if (schema.type === 'object' && schema.properties && depth < 3 && r.chance(0.6)) {
      const valid = this.valid(schema, '', depth) as Record<string, unknown>;
      const keys = Object.keys(schema.properties);
      const choice = r.int(0, 3);
      if (choice === 0)
        Object.defineProperty(valid, r.pick([`unknown_${word(r, 4)}`, '__proto__', 'constructor']), { value: { polluted: true }, enumerable: true });
      else if (choice === 1 && schema.required?.length) delete valid[r.pick(schema.required as string[])];
      else if (keys.length > 0) {
        const key = r.pick(keys);
        valid[key] = this.invalid(schema.properties[key], depth + 1);
      }
      return valid;
    }
    if (schema.type === 'array' && schema.items && depth < 3 && r.chance(0.5)) {
      if (schema.maxItems !== undefined && schema.maxItems < 2000 && r.chance(0.3))
        return Array.from({ length: schema.maxItems + 1 }, () => this.valid(schema.items));
      return [this.invalid(schema.items, depth + 1)];
    }
    if (schema.type === 'string' && r.chance(0.5)) {
      const bounds = [
        ...(schema.maxLength !== undefined ? ['y'.repeat(schema.maxLength + 1)] : []),
        ...(schema.minLength ? ['y'.repeat(schema.minLength - 1)] : []),
        ...(schema.format === 'uuid' ? ['not-a-uuid', randomUuid(r).toUpperCase(), '00000000-0000-0000-0000-000000000000', `${randomUuid(r)}x`] : []),
        ...(schema.format === 'date-time' ? ['yesterday', '2026-13-45T25:61:00Z', '0001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'] : []),
        ...(schema.enum ? [`${schema.enum[0]}_not`, String(schema.enum[0]).toUpperCase()] : []),
        42,
      ];
      return r.pick(bounds);
    }
    if ((schema.type === 'integer' || schema.type === 'number') && r.chance(0.6)) {
      return r.pick([
        ...(schema.maximum !== undefined ? [schema.maximum + 1] : []),
        ...(schema.minimum !== undefined ? [schema.minimum - 1] : []),
        1.5,
        '12',
        Number.MAX_SAFE_INTEGER * 4,
        -1e20,
      ]);
    }
    return r.pick(hostile)();
  }
}

function nest(levels: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

export interface FuzzTarget {
  baseUrl: string;
  contract: OpenApiContract;
  /** Credentials and Origin of an Admin (cookie or bearer), sent with every request but a few. */
  auth: () => Record<string, string>;
  /** Called with the headers of a request made with `auth()` that was answered 401: sign in again (the fuzz may have signed out). */
  reauthenticate: (sent: Record<string, string>) => Promise<void>;
  /** Real values by name: `organization`, path parameters (`integration`, `incident`, …) and the webhook secret `webhookSecret`. */
  known: Record<string, string>;
  requests: number;
  seed: number;
  /** Operations (`METHOD template`) not to send at all. */
  skip?: (method: string, template: string) => boolean;
  /** Progress and failures as they happen (the CLI prints them). */
  log?: (line: string) => void;
}

export interface FuzzResult {
  sent: number;
  failures: string[];
  /** `METHOD template status` → count. */
  statuses: Map<string, number>;
}

const MAX_FAILURES = 50;

/**
 * Walks every operation of the document in turn (DELETEs in the last tenth, so they do not
 * remove what the others use) until `requests` are sent, each request a mix of valid and invalid
 * path parameters, query, headers and body. A failure is a 5xx (503 where documented aside), a
 * response the document contradicts (contract.check), or no answer at all.
 */
export async function fuzzOperations(target: FuzzTarget): Promise<FuzzResult> {
  const random = new Random(target.seed);
  const values = new SchemaValues(target.contract.document, random, target.known);
  const operations = target.contract.operations().filter((o) => !target.skip?.(o.method.toUpperCase(), o.template));
  const early = operations.filter((o) => o.method !== 'delete');
  const late = operations.filter((o) => o.method === 'delete');
  const result: FuzzResult = { sent: 0, failures: [], statuses: new Map() };
  for (let i = 0; i < target.requests && result.failures.length < MAX_FAILURES; i++) {
    const pool = i >= target.requests * 0.9 && late.length > 0 ? late : early;
    const op = pool[i % pool.length];
    const request = buildRequest(op, values, random, target);
    let status = 0;
    try {
      const res = await fetch(`${target.baseUrl}${request.path}`, {
        method: op.method.toUpperCase(),
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
      });
      status = res.status;
      const contentType = res.headers.get('content-type');
      let text = '';
      if (contentType?.startsWith('text/event-stream')) await res.body?.cancel();
      else text = await res.text();
      let body: unknown;
      if (text && /^application\/(?:[\w.-]+\+)?json\b/.test(contentType ?? '')) {
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      }
      const problems = contentType?.startsWith('text/event-stream')
        ? target.contract.check(op.method, request.path, { status, contentType, body: undefined, text: '' })
        : target.contract.check(op.method, request.path, { status, contentType, body, text });
      // Every operation documents 503 for a database or Redis that is not answering; both are up
      // here, so that 503 is a failure (a query stalled or the pool ran dry), unlike load shedding.
      const documented503 = status === 503 && problems.length === 0 && !/is not answering/.test(text);
      if (status >= 500 && !documented503)
        problems.unshift(`${op.method.toUpperCase()} ${request.path.slice(0, 200)} → ${status}: server error ${text.slice(0, 200)}`);
      for (const problem of problems) {
        const line = `${problem}\n    request: ${request.describe}`;
        result.failures.push(line);
        target.log?.(`FAIL ${line}`);
      }
      if (status === 401 && request.authenticated) await target.reauthenticate(request.headers);
    } catch (error) {
      const line = `${op.method.toUpperCase()} ${request.path.slice(0, 200)}: no answer (${(error as Error).message})\n    request: ${request.describe}`;
      result.failures.push(line);
      target.log?.(`FAIL ${line}`);
    }
    result.sent += 1;
    const key = `${op.method.toUpperCase()} ${op.template} ${status}`;
    result.statuses.set(key, (result.statuses.get(key) ?? 0) + 1);
    if (result.sent % 500 === 0) target.log?.(`${result.sent} requests, ${result.failures.length} failures`);
  }
  return result;
}

interface BuiltRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
  authenticated: boolean;
  describe: string;
}

/** A query value, at most 4000 characters (a longer request line is refused by Node's parser before the service sees it). */
function encodeQueryValue(value: unknown): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined')).slice(0, 4000);
  // A lone surrogate cannot be percent-encoded as UTF-8: send the bytes of its UTF-8 form.
  return text.replace(/[\ud800-\udfff]/g, '\ufffd') === text
    ? encodeURIComponent(text)
    : encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
}

function webhookOperation(op: { operation: any }): boolean {
  return (op.operation.security ?? []).some((s: any) => 'webhookToken' in s);
}

function buildRequest(op: { method: string; template: string; operation: any }, values: SchemaValues, random: Random, target: FuzzTarget): BuiltRequest {
  // Most requests are valid but for one part, so that they get past validation to the handler.
  const breakOne = random.chance(0.7);
  const part = random.pick(['path', 'query', 'header', 'body', 'body', 'none']);
  const bad = (which: string) => breakOne && part === which && random.chance(0.9);
  const parameters: any[] = op.operation.parameters ?? [];
  const notes: string[] = [];

  let path = op.template;
  for (const p of parameters.filter((x) => x.in === 'path')) {
    let value: string;
    if (bad('path')) {
      value = random.pick([
        'not-a-uuid',
        '%00',
        encodeURIComponent('x'.repeat(300)),
        randomUuid(random),
        '%ED%A0%80',
        '%',
        'UPPER',
        '1%2F2',
        '%F0%9F%92%A9',
        encodeURIComponent('é'),
      ]);
      notes.push(`path ${p.name}=${value}`);
    } else {
      const known = webhookOperation(op) && p.name === 'integration' ? target.known.webhookIntegration : target.known[p.name];
      value = encodeURIComponent(String(known ?? values.valid(p.schema, p.name)));
    }
    path = path.replace(`{${p.name}}`, value);
  }

  const query: string[] = [];
  for (const p of parameters.filter((x) => x.in === 'query')) {
    if (bad('query') && random.chance(0.5)) {
      const value = values.invalid(p.schema);
      query.push(`${p.name}=${encodeQueryValue(value)}`);
      notes.push(`query ${p.name}=${JSON.stringify(value)?.slice(0, 80)}`);
    } else if (p.required || random.chance(0.4)) query.push(`${p.name}=${encodeQueryValue(values.valid(p.schema, p.name))}`);
  }
  if (bad('query') && random.chance(0.4)) {
    query.push(random.pick(['unknown=1', 'limit=1&limit=2', 'a%00b=1', `${'q'.repeat(50)}=${'v'.repeat(3000)}`, 'cursor=' + 'A'.repeat(600)]));
    notes.push(`extra query ${query[query.length - 1].slice(0, 80)}`);
  }
  if (query.length > 0) path += `?${query.join('&')}`;

  const security: any[] = op.operation.security ?? [];
  const webhook = webhookOperation(op);
  const secured = security.length > 0;
  let headers: Record<string, string> = {};
  let authenticated = false;
  const anonymous = random.chance(0.05);
  if (webhook) headers['x-svc-token'] = anonymous ? 'whsec_wrong' : (target.known.webhookSecret ?? '');
  else if (secured && !anonymous) {
    headers = { ...target.auth() };
    authenticated = true;
  } else if (anonymous) headers.authorization = random.pick(['Bearer svc_pat_wrong', 'Bearer ', 'Basic abc']);
  if (!secured || anonymous) headers.origin = target.auth().origin ?? '';
  if (anonymous) notes.push('no valid credentials');
  for (const p of parameters.filter((x) => x.in === 'header')) {
    if (p.name.toLowerCase() === 'x-svc-organization') {
      if (bad('header')) {
        headers['x-svc-organization'] = random.pick(['NOT_AN_ID', 'nowhere', '-', 'x'.repeat(64)]);
        notes.push(`header X-Svc-Organization=${headers['x-svc-organization']}`);
      } else if (p.required || random.chance(0.3)) headers['x-svc-organization'] = target.known.organization;
    } else if (p.name.toLowerCase() === 'last-event-id') {
      // Never open a stream that stays open: resume past any end, or send a bad cursor.
      headers['last-event-id'] = bad('header') ? random.pick(['x', '-1', '1e99']) : '1000000000';
    }
  }

  let body: string | undefined;
  const schema = op.operation.requestBody?.content?.['application/json']?.schema;
  if (schema) {
    headers['content-type'] = 'application/json';
    if (bad('body')) {
      const mode = random.int(0, 9);
      if (mode === 0) {
        body = '{"unterminated": ';
        notes.push('malformed JSON');
      } else if (mode === 1) {
        headers['content-type'] = random.pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml']);
        body = 'a=1';
        notes.push(`content-type ${headers['content-type']}`);
      } else if (mode === 2 && random.chance(0.3)) {
        body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 16) });
        notes.push('body over 1 MiB');
      } else {
        const value = values.invalid(schema);
        body = JSON.stringify(value);
        notes.push(`body ${body.slice(0, 160)}`);
      }
    } else body = JSON.stringify(values.valid(schema));
  } else if (op.method !== 'get' && random.chance(0.1)) {
    headers['content-type'] = 'application/json';
    body = random.pick(['{}', '{"unexpected":1}', '[]', 'null']);
    notes.push(`body ${body} on an operation without one`);
  }
  const describe = `${op.method.toUpperCase()} ${path.slice(0, 200)}${notes.length ? ` [${notes.join('; ')}]` : ' [valid]'}`;
  return { path, headers, body, authenticated, describe };
}

/**
 * Signs in as the Admin and creates what the fuzz's valid requests name: a member to change (never
 * the Admin), a second session of the Admin, an API token to revoke, a generic integration with
 * its webhook secret, an incident and its delivery (through the webhook), and an investigation.
 * Requests authenticate with the session, and one in five with an Admin API token.
 */
export async function prepareFuzzTarget(
  baseUrl: string,
  origin: string,
  admin: { email: string; password: string },
): Promise<Pick<FuzzTarget, 'auth' | 'reauthenticate' | 'known'>> {
  let cookie = '';
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { origin, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__Host-svc_session='));
    if (session) cookie = session.split(';')[0];
    return text ? JSON.parse(text) : undefined;
  };
  const signIn = () => call('POST', '/api/v1/auth/local/sign-in', { email: admin.email, password: admin.password });
  await signIn();
  await signIn();
  const organization = (await call('GET', '/api/v1/session')).organization.id as string;
  const sessions = await call('GET', '/api/v1/sessions');
  const otherSession = sessions.sessions.find((s: any) => !s.current)?.id as string;
  const victim = await call('POST', '/api/v1/local-users', {
    email: `fuzz-${Date.now()}@example.com`,
    name: 'Fuzz member',
    password: 'fuzz member password',
    role: 'viewer',
  });
  const token = await call('POST', '/api/v1/api-tokens', { name: 'Fuzz', role: 'viewer', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  const adminToken = await call('POST', '/api/v1/api-tokens', {
    name: 'Fuzz admin',
    role: 'admin',
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  let requests = 0;
  let bearer = true;
  const integration = await call('POST', '/api/v1/integrations', { type: 'generic', name: 'Fuzz webhook' });
  // The webhook has an integration of its own, which no other operation is given to disable, rotate or delete.
  const receiver = await call('POST', '/api/v1/integrations', { type: 'generic', name: 'Fuzz receiver' });
  const delivery = await call(
    'POST',
    `/webhooks/v1/integrations/${receiver.id}/alert-events`,
    { alerts: [{ labels: { alertname: 'Fuzz', service: 'fuzz' } }] },
    { 'x-svc-token': receiver.webhookSecret },
  );
  const investigation = await call('POST', '/api/v1/investigations', { incidentId: delivery.incidentIds[0] });
  return {
    // One request in five authenticates with an Admin API token instead of the session.
    auth: (): Record<string, string> => (bearer && ++requests % 5 === 0 ? { authorization: `Bearer ${adminToken.token}`, origin } : { cookie, origin }),
    reauthenticate: async (sent) => {
      // A token refused once (Policy switched tokens off) stays refused: go on with the session only.
      if (sent.authorization) bearer = false;
      else await signIn();
    },
    known: {
      organization,
      member: victim.membership.id,
      user: victim.id,
      session: otherSession,
      id: token.id,
      integration: integration.id,
      integrationId: integration.id,
      incident: delivery.incidentIds[0],
      incidentId: delivery.incidentIds[0],
      incidentIds: delivery.incidentIds[0],
      investigation: investigation.id,
      delivery: delivery.deliveryId,
      type: 'generic',
      webhookIntegration: receiver.id,
      webhookSecret: receiver.webhookSecret,
    },
  };
}
