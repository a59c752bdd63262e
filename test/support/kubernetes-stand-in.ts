import { createServer as createHttpServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-models/apps/v1';
import { SelfSubjectRulesReview } from 'kubernetes-models/authorization.k8s.io/v1';
import { Event as EventsV1Event } from 'kubernetes-models/events.k8s.io/v1';
import { Status } from '@kubernetes-models/apimachinery/apis/meta/v1/Status';
import { Event, Node, Pod } from 'kubernetes-models/v1';

/**
 * A Kubernetes API server on 127.0.0.1 for tests (none can run here): the paths the tools and
 * verify use, answered as kube-apiserver 1.31 answers them, over objects held in memory.
 *
 * - Every object it holds, and every object it serves (events.k8s.io/v1 events converted from the
 *   core/v1 ones, as the server converts them), validates against the Kubernetes schemas
 *   (kubernetes-models); a test that stores an invalid object fails there.
 * - Reads: GET of one object and lists, in a namespace and (pods, events) across all of them:
 *   `metadata.resourceVersion` on every list, items without kind and apiVersion, `limit` with a
 *   `continue` token and `remainingItemCount`, `fieldSelector` over the fields the server indexes
 *   for that resource (`field label not supported: x` otherwise: `involvedObject.*` for core
 *   events, `regarding.*` for events.k8s.io, `spec.nodeName` and `status.phase` for pods,
 *   `metadata.name` and `metadata.namespace` for all), `labelSelector` with =, ==, !=, in, notin,
 *   exists and !exists.
 * - pods/log: `container` (required when the pod has several), `previous`, `tailLines`,
 *   `limitBytes`; the server's 400s: no previous instance (`previous terminated container "x" in
 *   pod "y" not found`), no container named, an unknown container.
 * - SelfSubjectRulesReview (POST): the token's rules in the namespace, with the rules every
 *   authenticated account has (system:basic-user's).
 * - Authentication by bearer token (401 `Unauthorized` otherwise), authorization by the token's
 *   rules (403 with the server's `… is forbidden: User "…" cannot list resource "pods" in API group
 *   "" in the namespace "shop"`), 404 `Status` for an unknown object or path; every error a
 *   `Status` body, as the server writes it.
 */

export interface KubernetesRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

export interface KubernetesAccount {
  /** The user the server names in a 403, e.g. system:serviceaccount:observability:svc-reader. */
  user: string;
  /** Rules bound cluster-wide (a ClusterRoleBinding). */
  rules: KubernetesRule[];
}

export interface ContainerLogs {
  current: string[];
  /** The previous instance's lines; absent when the container never restarted. */
  previous?: string[];
}

export interface KubernetesStandInOptions {
  /** Bearer tokens and what each may do. */
  accounts: Record<string, KubernetesAccount>;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}

export interface ReceivedKubernetesRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

type Obj = {
  metadata: { name: string; namespace?: string; uid: string; resourceVersion: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
};

interface Resource {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  fields: (object: Obj) => Record<string, string | undefined>;
}

const meta = (o: Obj) => ({ 'metadata.name': o.metadata.name, 'metadata.namespace': o.metadata.namespace });
const path = (o: unknown, p: string) => p.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o) as string | undefined;

/** The resources it serves, with the fields the server indexes for field selectors (pkg/registry/…/strategy.go). */
const RESOURCES: Resource[] = [
  {
    group: '',
    version: 'v1',
    plural: 'pods',
    kind: 'Pod',
    namespaced: true,
    fields: (o) => ({ ...meta(o), 'spec.nodeName': path(o, 'spec.nodeName') ?? '', 'status.phase': path(o, 'status.phase') ?? '' }),
  },
  {
    group: '',
    version: 'v1',
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    fields: (o) => ({
      ...meta(o),
      ...Object.fromEntries(
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'fieldPath'].map((f) => [`involvedObject.${f}`, path(o, `involvedObject.${f}`) ?? '']),
      ),
      reason: path(o, 'reason') ?? '',
      type: path(o, 'type') ?? '',
      reportingComponent: path(o, 'reportingComponent') ?? '',
      source: path(o, 'source.component') ?? '',
    }),
  },
  {
    group: 'events.k8s.io',
    version: 'v1',
    plural: 'events',
    kind: 'Event',
    namespaced: true,
    fields: (o) => ({
      ...meta(o),
      ...Object.fromEntries(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'fieldPath'].map((f) => [`regarding.${f}`, path(o, `regarding.${f}`) ?? ''])),
      reason: path(o, 'reason') ?? '',
      type: path(o, 'type') ?? '',
      reportingController: path(o, 'reportingController') ?? '',
    }),
  },
  { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false, fields: meta },
  ...(['deployments', 'statefulsets', 'daemonsets', 'replicasets', 'controllerrevisions'] as const).map((plural) => ({
    group: 'apps',
    version: 'v1',
    plural,
    kind: {
      deployments: 'Deployment',
      statefulsets: 'StatefulSet',
      daemonsets: 'DaemonSet',
      replicasets: 'ReplicaSet',
      controllerrevisions: 'ControllerRevision',
    }[plural],
    namespaced: true,
    fields: meta,
  })),
];

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  Pod,
  Event,
  Node,
  Deployment,
  StatefulSet,
  DaemonSet,
  ReplicaSet,
  ControllerRevision,
};

/** What every authenticated account may do (system:basic-user and system:discovery), as the server lists it. */
const BASIC_RULES: KubernetesRule[] = [
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
];

function status(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
  new Status(body).validate();
  return body;
}

const allows = (rules: KubernetesRule[], group: string, resource: string, verb: string, name?: string) =>
  rules.some(
    (r) =>
      (r.apiGroups.includes('*') || r.apiGroups.includes(group)) &&
      (r.verbs.includes('*') || r.verbs.includes(verb)) &&
      (r.resources.includes('*') || r.resources.includes(resource) || (resource.includes('/') && r.resources.includes(`${resource.split('/')[0]}/*`))) &&
      (!r.resourceNames?.length || (name !== undefined && r.resourceNames.includes(name))),
  );

/** A label selector as the server parses it (k8s.io/apimachinery/pkg/labels): a list of requirements, all of which must hold. */
export function parseLabelSelector(selector: string): (labels: Record<string, string>) => boolean {
  const requirements: Array<(l: Record<string, string>) => boolean> = [];
  const parts = selector.match(/([^,(]+(\([^)]*\))?)/g) ?? [];
  for (const raw of parts.map((p) => p.trim()).filter(Boolean)) {
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(raw))) {
      const [, key, op, list] = m;
      const values = list.split(',').map((v) => v.trim());
      requirements.push(op === 'in' ? (l) => key in l && values.includes(l[key]) : (l) => !(key in l) || !values.includes(l[key]));
    } else if ((m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(raw))) {
      const [, key, op, value] = m;
      requirements.push(op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value);
    } else if ((m = /^!([\w./-]+)$/.exec(raw))) {
      const key = m[1];
      requirements.push((l) => !(key in l));
    } else if ((m = /^([\w./-]+)$/.exec(raw))) {
      const key = m[1];
      requirements.push((l) => key in l);
    } else throw new Error(`unable to parse requirement: ${raw}`);
  }
  return (labels) => requirements.every((r) => r(labels));
}

/** A field selector as the server parses it: `f=v`, `f==v`, `f!=v`, comma-separated; only indexed fields. */
function parseFieldSelector(selector: string, supported: string[]): (fields: Record<string, string | undefined>) => boolean {
  const checks = selector
    .split(',')
    .filter(Boolean)
    .map((term) => {
      const m = /^([^!=]+)(==|=|!=)(.*)$/.exec(term);
      if (!m) throw new Error(`invalid selector: '${selector}'; can't understand '${term}'`);
      const [, field, op, value] = m;
      if (!supported.includes(field)) throw new Error(`field label not supported: ${field}`);
      return (f: Record<string, string | undefined>) => ((f[field] ?? '') === value) === (op !== '!=');
    });
  return (fields) => checks.every((c) => c(fields));
}

/** events.k8s.io/v1's view of a core/v1 event (pkg/apis/events/v1 conversion). */
function toEventsV1(event: Obj): Obj {
  const e = event as Record<string, any>;
  return {
    metadata: e.metadata,
    eventTime: e.eventTime ?? null,
    ...(e.series ? { series: { count: e.series.count, lastObservedTime: e.series.lastObservedTime } } : {}),
    ...(e.reportingComponent ? { reportingController: e.reportingComponent } : {}),
    ...(e.reportingInstance ? { reportingInstance: e.reportingInstance } : {}),
    ...(e.action ? { action: e.action } : {}),
    reason: e.reason,
    regarding: e.involvedObject,
    ...(e.related ? { related: e.related } : {}),
    note: e.message,
    type: e.type,
    ...(e.source ? { deprecatedSource: e.source } : {}),
    ...(e.firstTimestamp ? { deprecatedFirstTimestamp: e.firstTimestamp } : {}),
    ...(e.lastTimestamp ? { deprecatedLastTimestamp: e.lastTimestamp } : {}),
    ...(e.count ? { deprecatedCount: e.count } : {}),
  };
}

export class KubernetesStandIn {
  readonly requests: ReceivedKubernetesRequest[] = [];
  private readonly server: Server;
  private readonly objects = new Map<string, Obj[]>();
  private readonly logs = new Map<string, Record<string, ContainerLogs>>();
  private revision = 1000;
  private uids = 0;

  private constructor(private readonly options: KubernetesStandInOptions) {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler) : createHttpServer(handler);
  }

  static async start(options: KubernetesStandInOptions): Promise<KubernetesStandIn> {
    const standIn = new KubernetesStandIn(options);
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get url(): string {
    return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Stores an object (kind and apiVersion as in a manifest), validated against its schema; uid and resourceVersion are given when missing. */
  add<T extends { kind: string; metadata: { name: string; namespace?: string; uid?: string } }>(object: T): T & { metadata: { uid: string } } {
    const model = MODELS[object.kind];
    if (!model) throw new Error(`KubernetesStandIn: no ${object.kind}`);
    new model(object).validate();
    const stored = structuredClone(object) as unknown as Obj;
    stored.metadata.uid ||= `00000000-0000-4000-8000-${String(++this.uids).padStart(12, '0')}`;
    stored.metadata.resourceVersion = String(++this.revision);
    const resource = RESOURCES.find(
      (r) =>
        r.kind === object.kind &&
        r.group === ((object as { apiVersion?: string }).apiVersion?.split('/')[1] ? (object as { apiVersion?: string }).apiVersion!.split('/')[0] : ''),
    )!;
    const key = `${resource.group}/${resource.plural}`;
    this.objects.set(key, [
      ...(this.objects.get(key) ?? []).filter((o) => !(o.metadata.name === stored.metadata.name && o.metadata.namespace === stored.metadata.namespace)),
      stored,
    ]);
    return stored as unknown as T & { metadata: { uid: string } };
  }

  /** A pod's containers' logs, current and previous. */
  setLogs(namespace: string, pod: string, containers: Record<string, ContainerLogs>): void {
    this.logs.set(`${namespace}/${pod}`, containers);
  }

  private send(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
    res.writeHead(code, { 'content-type': contentType, 'cache-control': 'no-cache, private' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, params: url.searchParams, headers: req.headers });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const account = token ? this.options.accounts[token] : undefined;
    if (!account) return this.send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
    try {
      if (req.method === 'POST' && url.pathname === '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews')
        return this.review(res, account, Buffer.concat(chunks).toString('utf8'));
      if (req.method !== 'GET') return this.send(res, 405, status(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`));
      return this.read(res, account, url);
    } catch (error) {
      return this.send(res, 400, status(400, 'BadRequest', (error as Error).message));
    }
  }

  private review(res: ServerResponse, account: KubernetesAccount, text: string): void {
    const body = JSON.parse(text) as { apiVersion?: string; kind?: string; spec?: { namespace?: string } };
    if (body.kind !== 'SelfSubjectRulesReview' || body.apiVersion !== 'authorization.k8s.io/v1')
      return this.send(res, 400, status(400, 'BadRequest', `the body of the request was in an unknown format`));
    const review = {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { namespace: body.spec?.namespace ?? '' },
      status: {
        resourceRules: [...BASIC_RULES, ...account.rules],
        nonResourceRules: [
          {
            verbs: ['get'],
            nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
          },
        ],
        incomplete: false,
      },
    };
    new SelfSubjectRulesReview(review as never).validate();
    this.send(res, 201, review);
  }

  private read(res: ServerResponse, account: KubernetesAccount, url: URL): void {
    const m = /^\/(?:api\/(v1)|apis\/([a-z0-9.-]+)\/(v1))(?:\/namespaces\/([a-z0-9-]+))?\/([a-z]+)(?:\/([a-z0-9.-]+))?(?:\/(log))?$/.exec(url.pathname);
    const notFound = () => this.send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    if (!m) return notFound();
    const [, coreVersion, group = '', groupVersion, namespace, plural, name, sub] = m;
    const resource = RESOURCES.find((r) => r.group === group && r.version === (coreVersion ?? groupVersion) && r.plural === plural);
    if (!resource || (namespace && !resource.namespaced) || (sub && (plural !== 'pods' || !name))) return notFound();
    if (resource.namespaced && name && !namespace) return notFound();
    const verb = name ? 'get' : 'list';
    const resourceName = sub ? `${plural}/${sub}` : plural;
    if (!allows(account.rules, group, resourceName, verb, name)) {
      const where = namespace ? ` in the namespace "${namespace}"` : resource.namespaced ? ' at the cluster scope' : '';
      const what = name ? `${plural} "${name}"` : plural;
      return this.send(
        res,
        403,
        status(403, 'Forbidden', `${what} is forbidden: User "${account.user}" cannot ${verb} resource "${resourceName}" in API group "${group}"${where}`, {
          ...(name ? { name } : {}),
          ...(group ? { group } : {}),
          kind: plural,
        }),
      );
    }
    const key = `${group === 'events.k8s.io' ? '' : group}/${plural}`;
    const stored = (this.objects.get(key) ?? []).map((o) => (group === 'events.k8s.io' ? toEventsV1(o) : o));
    const apiVersion = group ? `${group}/${groupVersion}` : 'v1';
    if (name) {
      const found = stored.find((o) => o.metadata.name === name && (!resource.namespaced || o.metadata.namespace === namespace));
      if (!found)
        return this.send(
          res,
          404,
          status(404, 'NotFound', `${plural}${group ? `.${group}` : ''} "${name}" not found`, { name, ...(group ? { group } : {}), kind: plural }),
        );
      if (sub === 'log') return this.log(res, found, url.searchParams);
      return this.send(res, 200, { kind: resource.kind, apiVersion, ...found });
    }
    const fieldSelector = url.searchParams.get('fieldSelector');
    const labelSelector = url.searchParams.get('labelSelector');
    const fieldsMatch = fieldSelector ? parseFieldSelector(fieldSelector, Object.keys(resource.fields(stored[0] ?? ({ metadata: {} } as Obj)))) : () => true;
    const labelsMatch = labelSelector ? parseLabelSelector(labelSelector) : () => true;
    const matching = stored
      .filter((o) => !namespace || o.metadata.namespace === namespace)
      .filter((o) => fieldsMatch(resource.fields(o)) && labelsMatch(o.metadata.labels ?? {}))
      .sort((a, b) => `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace ?? ''}/${b.metadata.name}`));
    // `continue` is opaque to clients: here the list's resourceVersion and where the next page starts.
    const token = url.searchParams.get('continue');
    let start = 0;
    let listVersion = String(this.revision);
    if (token) {
      try {
        const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv: string; start: number };
        start = decoded.start;
        listVersion = decoded.rv;
      } catch {
        return this.send(res, 400, status(400, 'BadRequest', 'continue key is not valid: illegal base64 data at input byte 0'));
      }
    }
    const limit = Number(url.searchParams.get('limit') ?? 0);
    const page = limit > 0 ? matching.slice(start, start + limit) : matching.slice(start);
    const rest = matching.length - start - page.length;
    const next = rest > 0 ? Buffer.from(JSON.stringify({ rv: listVersion, start: start + page.length })).toString('base64url') : undefined;
    // The one place the real server departs from its own schema: an event written through core/v1
    // without eventTime is served by events.k8s.io/v1 with `"eventTime": null` (required there);
    // everything else of it is validated.
    if (group === 'events.k8s.io')
      page.forEach((e) => new EventsV1Event({ apiVersion, kind: 'Event', ...e, eventTime: e.eventTime ?? '1970-01-01T00:00:00.000000Z' } as never).validate());
    this.send(res, 200, {
      kind: `${resource.kind}List`,
      apiVersion,
      metadata: { resourceVersion: listVersion, ...(next ? { continue: next, remainingItemCount: rest } : {}) },
      items: page,
    });
  }

  private log(res: ServerResponse, pod: Obj, params: URLSearchParams): void {
    const containers = ((pod.spec as { containers: Array<{ name: string }> }).containers ?? []).map((c) => c.name);
    const podName = pod.metadata.name;
    let container = params.get('container') ?? undefined;
    if (!container) {
      if (containers.length !== 1)
        return this.send(
          res,
          400,
          status(400, 'BadRequest', `a container name must be specified for pod ${podName}, choose one of: [${containers.join(' ')}]`),
        );
      container = containers[0];
    }
    if (!containers.includes(container)) return this.send(res, 400, status(400, 'BadRequest', `container ${container} is not valid for pod ${podName}`));
    const logs = this.logs.get(`${pod.metadata.namespace}/${podName}`)?.[container] ?? { current: [] };
    const previous = params.get('previous') === 'true';
    if (previous && !logs.previous)
      return this.send(res, 400, status(400, 'BadRequest', `previous terminated container "${container}" in pod "${podName}" not found`));
    let lines = previous ? logs.previous! : logs.current;
    const tail = params.get('tailLines');
    if (tail !== null) lines = Number(tail) === 0 ? [] : lines.slice(-Number(tail));
    let text = lines.map((l) => `${l}\n`).join('');
    const limitBytes = params.get('limitBytes');
    if (limitBytes !== null) text = Buffer.from(text).subarray(0, Number(limitBytes)).toString('utf8');
    this.send(res, 200, text, 'text/plain');
  }
}
