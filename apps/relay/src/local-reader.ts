import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { DatastoreClient, DatastoreFailure, DEFAULT_PORTS } from '@svc/datastores';
import { capabilityDefinition, isRelayDatastore, JobMessage, JobResultMessage, kubernetesNamespaceOf } from '@svc/relays/protocol';
import type { LocalDatastore, LocalHttpIntegration, LocalIntegration, LocalKubernetes } from './relay-config';

/** The most a job may ask to read, whatever it says. */
const MAX_BYTES = 16 * 1024 * 1024;

function failure(jobId: string, error: string): JobResultMessage {
  return { jobId, ok: false, status: 0, body: Buffer.alloc(0), truncated: false, error: error.slice(0, 1024) };
}

function authorization(credentials: LocalHttpIntegration['credentials']): Record<string, string> {
  if (!credentials) return {};
  if ('bearerToken' in credentials) return { authorization: `Bearer ${credentials.bearerToken}` };
  return { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` };
}

/** Reads a body up to `maxBytes` (then stops reading it): its chunks, their size, whether it was cut. */
function capped(body: Readable, maxBytes: number): Promise<{ chunks: Buffer[]; size: number; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      if (chunk.length <= room) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, room));
      size += room;
      body.destroy();
      resolve({ chunks, size, truncated: true });
    });
    body.on('end', () => resolve({ chunks, size, truncated: false }));
    body.on('error', reject);
  });
}

/** The integration's base URL as a directory, so that a job's path reads below it. */
function base(integration: LocalHttpIntegration | LocalKubernetes, env: NodeJS.ProcessEnv): URL {
  const url = integration.type === 'kubernetes' ? (integration.server ?? inClusterServer(env)) : integration.baseUrl;
  return new URL(url.endsWith('/') ? url : `${url}/`);
}

/** The API server a pod's environment names, as client libraries find it in a cluster. */
function inClusterServer(env: NodeJS.ProcessEnv): string {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host) return 'https://kubernetes.default.svc';
  return `https://${isIP(host) === 6 ? `[${host}]` : host}${port ? `:${port}` : ''}`;
}

/** Kubernetes paths that read across namespaces: refused when the relay limits the namespaces it reads. */
const ALL_NAMESPACES = /^(api\/v1\/(pods|events)|apis\/events\.k8s\.io\/v1\/events)$/;

/** Why a relay that reads only `allowed` refuses this Kubernetes job, or null. */
function namespaceRefusal(job: JobMessage, allowed: string[] | undefined): string | null {
  // A review of the relay's own access reads no object, in whatever namespace it is asked for.
  if (!allowed || job.capabilityId === 'kubernetes.access') return null;
  const namespace = kubernetesNamespaceOf(`${job.path}/`);
  if (namespace && !allowed.includes(namespace)) return `Refused by the relay's local policy: namespace ${namespace} is not one this relay reads`;
  if (!namespace && ALL_NAMESPACES.test(job.path)) return "Refused by the relay's local policy: this relay reads only some namespaces, not all of them at once";
  return null;
}

/**
 * Runs jobs against the systems of this network, under the local policy: the integration must be
 * configured here, the capability allowed for it, and the path one the capability reads. The
 * base URL and credentials never leave this process; the answer goes back capped at the job's
 * max_bytes.
 */
export class LocalReader {
  private readonly integrations: Map<string, LocalIntegration>;
  /** Each HTTP integration's base URL, parsed once. */
  private readonly bases = new Map<string, URL>();
  /** Kept-alive connections to the local systems (redirects are never followed: a 3xx is the answer). */
  private readonly agent = new Agent();
  /** Datastores of this network, read in the same read-only sessions as the control plane's; any address the relay can reach. */
  private readonly datastores = new DatastoreClient(async (host) => (isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address)));

  /** Connections to each Kubernetes API server, trusting the cluster's CA (read at the first job). */
  private readonly kubernetesAgents = new Map<string, Promise<Agent>>();

  constructor(integrations: LocalIntegration[], env: NodeJS.ProcessEnv = process.env) {
    this.integrations = new Map(integrations.map((i) => [i.integrationId, i]));
    for (const i of integrations) if (!isRelayDatastore(i.type)) this.bases.set(i.integrationId, base(i as LocalHttpIntegration | LocalKubernetes, env));
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    const kubernetes = await Promise.all([...this.kubernetesAgents.values()].map((agent) => agent.catch(() => undefined)));
    await Promise.all([this.agent.close(), ...kubernetes.map((agent) => agent?.close())]);
  }

  /** The agent for a Kubernetes API server: its connections trust the CA file (the system's roots too when it cannot be read). */
  private kubernetesAgent(integration: LocalKubernetes): Promise<Agent> {
    let agent = this.kubernetesAgents.get(integration.integrationId);
    if (!agent) {
      agent = readFile(integration.caFile, 'utf8').then(
        (ca) => new Agent({ connect: { ca } }),
        () => new Agent(),
      );
      this.kubernetesAgents.set(integration.integrationId, agent);
    }
    return agent;
  }

  /** The headers and body of a Kubernetes job: the ServiceAccount token (read now: a projected token is rotated), and verify's review. */
  private async kubernetesRequest(job: JobMessage, integration: LocalKubernetes) {
    const token = (await readFile(integration.tokenFile, 'utf8')).trim();
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: job.path.endsWith('/log') ? 'text/plain, application/json' : 'application/json',
    };
    if (job.capabilityId !== 'kubernetes.access') return { method: 'GET' as const, headers };
    const namespace = (job.query ?? []).find((p) => p.name === 'namespace')?.value || 'default';
    const body = JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } });
    return { method: 'POST' as const, headers: { ...headers, 'content-type': 'application/json' }, body };
  }

  /** Why the local policy refuses the job, or null; for an HTTP system, the URL it reads. */
  private check(job: JobMessage): { refused: string } | { refused: null; url?: URL } {
    const integration = this.integrations.get(job.integrationId);
    if (!integration) return { refused: `Refused by the relay's local policy: integration ${job.integrationId} is not configured on this relay` };
    if (!integration.capabilities.includes(job.capabilityId))
      return { refused: `Refused by the relay's local policy: ${job.capabilityId} is not allowed for this integration` };
    const definition = capabilityDefinition(job.capabilityId, job.capabilityVersion);
    if (!definition || definition.integrationType !== integration.type)
      return { refused: `Refused: this relay does not know ${job.capabilityId} version ${job.capabilityVersion}` };
    if (!definition.paths.test(job.path)) return { refused: `Refused by the relay's local policy: ${job.capabilityId} does not read ${job.path}` };
    if (isRelayDatastore(integration.type)) return { refused: null }; // a named read, not a URL path
    if (integration.type === 'kubernetes') {
      const refused = namespaceRefusal(job, integration.namespaces);
      if (refused) return { refused };
    }
    // The path as the URL resolves it: dot segments (`..`, `%2e%2e`), `?` and `#` would make a
    // path the table allows read another one.
    const root = this.bases.get(job.integrationId)!;
    const url = new URL(job.path, root);
    if (url.pathname !== `${root.pathname}${job.path}`)
      return { refused: `Refused by the relay's local policy: ${job.capabilityId} does not read ${job.path}` };
    return { refused: null, url };
  }

  /**
   * Runs a job; `controller` is the job's: aborting it cancels the job, and the job's deadline
   * aborts it too (one controller a job, whichever comes first).
   */
  async run(job: JobMessage, controller: AbortController): Promise<JobResultMessage> {
    const checked = this.check(job);
    if (checked.refused !== null) return failure(job.jobId, checked.refused);
    const configured = this.integrations.get(job.integrationId)!;
    if (!checked.url) return this.readDatastore(job, configured as LocalDatastore, controller.signal);
    const integration = configured as LocalHttpIntegration | LocalKubernetes;
    const url = checked.url;
    if (job.query?.length && job.capabilityId !== 'kubernetes.access')
      url.search = new URLSearchParams(job.query.map(({ name, value }) => [name, value] as [string, string])).toString();
    const maxBytes = Math.min(Math.max(1, job.maxBytes || MAX_BYTES), MAX_BYTES);
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.max(1, job.timeoutMs || 30_000),
    );
    try {
      const request =
        integration.type === 'kubernetes'
          ? { agent: await this.kubernetesAgent(integration), ...(await this.kubernetesRequest(job, integration)) }
          : {
              agent: this.agent,
              method: 'GET' as const,
              headers: {
                ...authorization(integration.credentials),
                ...(integration.tenant ? { 'x-scope-orgid': integration.tenant } : {}),
                accept: 'application/json',
              },
            };
      const answer = await request.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        ...('body' in request ? { body: request.body } : {}),
        signal: controller.signal,
      });
      const { chunks, size, truncated } = await capped(answer.body, maxBytes);
      return { jobId: job.jobId, ok: true, status: answer.statusCode, body: Buffer.concat(chunks, size), truncated, error: '' };
    } catch (error) {
      if (timedOut) return failure(job.jobId, `No answer from ${integration.type} within ${job.timeoutMs} ms`);
      if (controller.signal.aborted) return failure(job.jobId, 'Cancelled');
      if (integration.type === 'kubernetes' && (error as { syscall?: string }).syscall === 'open')
        return failure(job.jobId, `Could not read the relay's ServiceAccount token (${(error as { code?: string }).code}): is it running in the cluster?`);
      const cause = (error as { code?: string }).code ?? (error as Error).name;
      return failure(job.jobId, `Could not reach ${integration.type} from the relay: ${cause}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A named read of a datastore of this network (or `verify`: what the account may do), in the
   * datastores library's read-only session; the answer is the read's JSON, capped like any answer.
   */
  private async readDatastore(job: JobMessage, integration: LocalDatastore, signal: AbortSignal): Promise<JobResultMessage> {
    const endpoint = {
      kind: integration.type,
      host: integration.host,
      port: integration.port ?? DEFAULT_PORTS[integration.type],
      database: integration.database,
      tls: integration.tls,
      username: integration.credentials?.username,
      password: integration.credentials?.password,
    };
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, job.timeoutMs || 30_000))]);
    try {
      const encoded = (job.query ?? []).find((p) => p.name === 'arguments')?.value;
      const args = encoded ? (JSON.parse(encoded) as Record<string, unknown>) : {};
      const output = job.path === 'verify' ? await this.datastores.verify(endpoint, deadline) : await this.datastores.read(endpoint, job.path, args, deadline);
      const body = Buffer.from(JSON.stringify(output));
      const maxBytes = Math.min(Math.max(1, job.maxBytes || MAX_BYTES), MAX_BYTES);
      return { jobId: job.jobId, ok: true, status: 200, body: body.subarray(0, maxBytes), truncated: body.length > maxBytes, error: '' };
    } catch (error) {
      if (signal.aborted) return failure(job.jobId, 'Cancelled');
      if (deadline.aborted) return failure(job.jobId, `No answer from ${integration.type} within ${job.timeoutMs} ms`);
      if (error instanceof DatastoreFailure) return failure(job.jobId, error.message);
      if (error instanceof SyntaxError) return failure(job.jobId, "The read's arguments are not JSON");
      return failure(job.jobId, `Could not read ${integration.type} from the relay: ${(error as Error).message}`);
    }
  }
}
