import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } & Record<string, any> } & Record<
  string,
  any
>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const SCHEMA_ID = 'openapi-contract';

/** An OpenAPI 3.0 schema as JSON Schema for ajv: `nullable` as a null alternative, refs into one schema, and (closed) objects with declared properties refusing undeclared ones. */
export function toJsonSchema(schema: any, closed: boolean): any {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, closed));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: any = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'examples' || key === 'xml' || key === 'externalDocs' || key === 'discriminator') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.startsWith('#/') ? `${SCHEMA_ID}${value}` : value;
    else if (key === 'properties' || key === 'patternProperties')
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, toJsonSchema(v, closed)]));
    else out[key] = typeof value === 'object' ? toJsonSchema(value, closed) : value;
  }
  if (closed && out.properties && out.additionalProperties === undefined && !out.anyOf && !out.oneOf && !out.allOf) out.additionalProperties = false;
  return schema.nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

export interface Operation {
  method: string;
  template: string;
  operation: any;
}

export interface ObservedResponse {
  status: number;
  contentType: string | null;
  /** The parsed JSON body, when the response is JSON. */
  body: unknown;
  text: string;
}

/**
 * The served OpenAPI document as a checker of real responses: each response must have a status the
 * operation documents, a media type it declares for that status, and (for JSON) a body its schema
 * accepts, objects refusing properties the schema does not declare. Tests opt in with
 * `contract.watch(client)`; each test then checks the responses it received itself, through a
 * tally started before it (test/support/openapi-conformance.ts does both for every test of a
 * describe block).
 */
export class OpenApiContract {
  readonly problems: string[] = [];
  /** `METHOD template status` of every response checked, for coverage reports. */
  readonly seen = new Set<string>();
  private recorded = 0;
  private tallyStart = { recorded: 0, problems: 0 };
  private tallySeen = new Set<string>();
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly matchers: { method: string; template: string; regex: RegExp; literals: number; operation: any }[] = [];

  constructor(readonly document: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: SCHEMA_ID, components: { schemas: toJsonSchema(document.components.schemas, true) } });
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        if (!item[method]) continue;
        const segments = template.split('/');
        const regex = new RegExp(`^${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
        this.matchers.push({ method, template, regex, literals: segments.filter((s) => !s.startsWith('{')).length, operation: item[method] });
      }
    }
    // A literal segment beats a parameter (`/integrations/connect/callback` over `/integrations/{integration}`).
    this.matchers.sort((a, b) => b.literals - a.literals);
  }

  static async load(baseUrl: string): Promise<OpenApiContract> {
    const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
    if (res.status !== 200) throw new Error(`the OpenAPI document answered ${res.status}`);
    return new OpenApiContract((await res.json()) as OpenApiDocument);
  }

  operations(): Operation[] {
    return this.matchers.map(({ method, template, operation }) => ({ method, template, operation }));
  }

  find(method: string, path: string): Operation | undefined {
    const pathname = path.split('?')[0];
    const match = this.matchers.find((m) => m.method === method.toLowerCase() && m.regex.test(pathname));
    return match && { method: match.method, template: match.template, operation: match.operation };
  }

  /** The problems of one response to `method path` (empty when it matches the document). */
  check(method: string, path: string, response: ObservedResponse): string[] {
    const where = `${method.toUpperCase()} ${path.length > 200 ? `${path.slice(0, 200)}…` : path} → ${response.status}`;
    const found = this.find(method, path);
    if (!found) return [`${where}: no operation in the document`];
    const answer = `${method.toUpperCase()} ${found.template} ${response.status}`;
    this.seen.add(answer);
    this.tallySeen.add(answer);
    const documented = found.operation.responses?.[String(response.status)] ?? found.operation.responses?.default;
    if (!documented) return [`${where}: status not documented (documented: ${Object.keys(found.operation.responses ?? {}).join(', ')})`];
    const content: Record<string, any> | undefined = documented.content;
    const hasBody = response.text.length > 0;
    if (!content) return hasBody && response.status !== 302 ? [`${where}: a body is sent but the document declares none`] : [];
    const isJson = (type: string) => /^application\/(?:[\w.-]+\+)?json$/.test(type);
    // An empty JSON document is no answer; an empty export or report is one.
    if (!hasBody) return response.status === 204 || !Object.keys(content).some(isJson) ? [] : [`${where}: the document declares a body, none was sent`];
    const mediaType = (response.contentType ?? '').split(';')[0].trim().toLowerCase();
    const declared = content[mediaType];
    if (!declared) return [`${where}: media type ${mediaType || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`];
    if (!isJson(mediaType) || !declared.schema) return [];
    const key = `${found.method} ${found.template} ${response.status} ${mediaType}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(declared.schema, true));
      this.validators.set(key, validate);
    }
    if (validate(response.body)) return [];
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
    return [`${where}: body does not match the schema: ${errors.join('; ')} — body: ${response.text.slice(0, 300)}`];
  }

  /** Checks the response and records any problem in `problems`. */
  record(method: string, path: string, response: ObservedResponse): void {
    this.recorded += 1;
    this.problems.push(...this.check(method, path, response));
  }

  /** Starts a new tally: what `tally` reports from now on. */
  startTally(): void {
    this.tallyStart = { recorded: this.recorded, problems: this.problems.length };
    this.tallySeen = new Set();
  }

  /**
   * Since the last startTally (or since the contract was loaded): how many responses were recorded,
   * the problems found in them, and which `METHOD template status` they were. A test that asserts
   * only that `problems` is empty checks nothing when it received no response: assert `checked`.
   */
  get tally(): { checked: number; problems: string[]; seen: ReadonlySet<string> } {
    return { checked: this.recorded - this.tallyStart.recorded, problems: this.problems.slice(this.tallyStart.problems), seen: this.tallySeen };
  }

  /** Every response `client` receives from now on is checked (see Client.observe). */
  watch(client: { observe?: (method: string, path: string, response: ObservedResponse) => void }): void {
    client.observe = (method, path, response) => this.record(method, path, response);
  }
}
