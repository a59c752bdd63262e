import type { ApiException, AppsV1Api, AuthorizationV1Api, CoreV1Api, EventsV1Api } from '@kubernetes/client-node';
import { DEFAULT_READ_CAP_BYTES, OutboundClient } from './outbound-client';

/** One request to a Kubernetes API server: a path under its URL (no leading slash) and a query; a POST only for a review. */
export interface KubernetesRequest {
  method: 'GET' | 'POST';
  path: string;
  query: Array<[string, string]>;
  /** A POST's JSON body. */
  body?: string;
}

/** Its answer, whatever the status: the body read up to a cap. */
export interface KubernetesAnswer {
  status: number;
  body: Buffer;
  complete: boolean;
}

/** How requests reach the API server: directly under the outbound policy, or through a relay inside the cluster. */
export type KubernetesSend = (request: KubernetesRequest) => Promise<KubernetesAnswer>;

/** The clients of the API groups this service reads, all sending through one KubernetesSend. */
export interface KubernetesApis {
  core: CoreV1Api;
  apps: AppsV1Api;
  events: EventsV1Api;
  authorization: AuthorizationV1Api;
}

/** A successful answer larger than the cap the sender read to: refused rather than parsed in part. */
export class KubernetesAnswerTooLarge extends Error {
  constructor(readonly path: string) {
    super(`The answer at /${path} is larger than the read cap`);
  }
}

/**
 * The URL the generated clients build requests under. Never contacted: the sender takes the path
 * and query from it and sends them where the integration says (under its server's URL, which may
 * have a path of its own, or through a relay that holds the URL).
 */
const PLACEHOLDER = 'https://kubernetes.invalid';

/**
 * @kubernetes/client-node's generated API clients, with requests sent by `send` instead of its own
 * fetch: the clients build the paths and queries and read the answers as the API's types, while
 * every connection stays under this service's outbound policy or goes through a relay. The relay
 * answers no headers, so the content type is the one the API server gives these paths: text for a
 * container's log, JSON for everything else.
 */
export async function kubernetesApis(send: KubernetesSend): Promise<KubernetesApis> {
  const { AppsV1Api, AuthorizationV1Api, CoreV1Api, createConfiguration, EventsV1Api, ResponseContext, ServerConfiguration, wrapHttpLibrary } =
    await clientNode();
  const httpApi = wrapHttpLibrary({
    async send(request) {
      const url = new URL(request.getUrl());
      const path = url.pathname.replace(/^\//, '');
      const body = request.getBody();
      const answer = await send({
        method: request.getHttpMethod() === 'POST' ? 'POST' : 'GET',
        path,
        query: [...url.searchParams.entries()],
        ...(typeof body === 'string' ? { body } : {}),
      });
      const ok = answer.status >= 200 && answer.status <= 299;
      if (ok && !answer.complete) throw new KubernetesAnswerTooLarge(path);
      const contentType = path.endsWith('/log') && ok ? 'text/plain' : 'application/json';
      return new ResponseContext(
        answer.status,
        { 'content-type': contentType },
        { text: async () => answer.body.toString('utf8'), binary: async () => answer.body },
      );
    },
  });
  const configuration = createConfiguration({ baseServer: new ServerConfiguration(PLACEHOLDER, {}), httpApi });
  return {
    core: new CoreV1Api(configuration),
    apps: new AppsV1Api(configuration),
    events: new EventsV1Api(configuration),
    authorization: new AuthorizationV1Api(configuration),
  };
}

type ClientNode = typeof import('@kubernetes/client-node');
let loaded: Promise<ClientNode> | undefined;
let apiException: ClientNode['ApiException'] | undefined;

/**
 * @kubernetes/client-node, loaded the first time a Kubernetes integration is read: it is large
 * (a generated client for every API group), and every process imports this library.
 */
function clientNode(): Promise<ClientNode> {
  loaded ??= import('@kubernetes/client-node').then((module) => {
    apiException = module.ApiException;
    return module;
  });
  return loaded;
}

/** Whether `error` is the generated clients' error answer (a non-2xx status, with its body). */
export function isKubernetesApiException(error: unknown): error is ApiException<unknown> {
  return apiException !== undefined && error instanceof apiException;
}

/** The most a successful answer of the API server may be (a list of pods is large); error answers are read to 64 KiB. */
export const KUBERNETES_MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * Sends to the API server at `server` through the outbound client: the policy checked at every
 * connection, the server's certificate checked against `ca` when given, the bearer token in
 * `headers`. A failure to connect throws OutboundError.
 */
export function outboundKubernetesSend(
  outbound: OutboundClient,
  server: string,
  headers: Record<string, string>,
  options: { ca?: string; signal?: AbortSignal } = {},
): KubernetesSend {
  const root = server.endsWith('/') ? server : `${server}/`;
  return async (request) => {
    const url = new URL(request.path, root);
    for (const [name, value] of request.query) url.searchParams.append(name, value);
    const common = {
      url,
      headers: {
        ...headers,
        accept: request.path.endsWith('/log') ? 'text/plain, application/json' : 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      signal: options.signal,
      ca: options.ca,
      maxBytes: (status: number) => (status >= 200 && status <= 299 ? KUBERNETES_MAX_ANSWER_BYTES : DEFAULT_READ_CAP_BYTES),
    };
    const answer = request.method === 'POST' ? await outbound.post({ ...common, body: request.body ?? '' }) : await outbound.get(common);
    return { status: answer.status, body: answer.body, complete: answer.complete };
  };
}

/** A Kubernetes `Status` (an error answer's body): its reason and message, when the body is one. */
export function kubernetesStatus(body: unknown): { reason?: string; message: string; code?: number } | undefined {
  let parsed = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      return undefined;
    }
  }
  const status = parsed as { kind?: unknown; apiVersion?: unknown; message?: unknown; reason?: unknown; code?: unknown } | undefined;
  if (status?.kind !== 'Status' || status.apiVersion !== 'v1' || typeof status.message !== 'string') return undefined;
  return {
    message: status.message,
    ...(typeof status.reason === 'string' ? { reason: status.reason } : {}),
    ...(typeof status.code === 'number' ? { code: status.code } : {}),
  };
}
