import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { capabilityDefinition, CAPABILITIES } from '@svc/relays/protocol';

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

const credentials = z.union([
  z.object({ bearerToken: z.string().min(1) }).strict(),
  z.object({ username: z.string().min(1), password: z.string().min(1) }).strict(),
]);

const httpIntegration = z
  .object({
    /** The control plane's id of the integration this system serves (config.relayId names this relay there). */
    integrationId: uuid,
    type: z.enum(['prometheus', 'alertmanager', 'rabbitmq', 'loki']),
    /** Where the system answers, inside this network. Never sent to the control plane. */
    baseUrl: z.string().regex(/^https?:\/\//, 'must be an http(s) URL'),
    /** Sent to the system only; never to the control plane. */
    credentials: credentials.optional(),
    /** Loki only: the tenant to read, sent as X-Scope-OrgID. */
    tenant: z
      .string()
      .regex(/^[A-Za-z0-9!_.*'()-]{1,150}(\|[A-Za-z0-9!_.*'()-]{1,150})*$/, "must be a Loki tenant id (letters, digits, !_.*'()- ; several joined by |)")
      .optional(),
    /** What this relay allows for it; anything else is refused here, whatever the control plane asks. */
    capabilities: z.array(z.string()).min(1),
  })
  .strict();

/** A datastore the relay reads next to it, with the same read-only sessions as the control plane's. */
const datastoreIntegration = z
  .object({
    integrationId: uuid,
    type: z.enum(['postgresql', 'mysql', 'redis']),
    /** Where the datastore answers, inside this network. Never sent to the control plane. */
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).optional(),
    database: z.string().min(1).optional(),
    tls: z.enum(['disable', 'require', 'verify-full']).default('verify-full'),
    /** Sent to the datastore only; never to the control plane. */
    credentials: z
      .object({ username: z.string().min(1).optional(), password: z.string().min(1).optional() })
      .strict()
      .optional(),
    capabilities: z.array(z.string()).min(1),
  })
  .strict();

/** The standard paths of a pod's ServiceAccount credentials (the projected token is rotated, so it is read at each request). */
export const SERVICE_ACCOUNT_TOKEN_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/token';
export const SERVICE_ACCOUNT_CA_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt';

/** The Kubernetes API of the cluster the relay runs in, read with the relay's own ServiceAccount. */
const kubernetesIntegration = z
  .object({
    integrationId: uuid,
    type: z.literal('kubernetes'),
    /** The API server; by default the one the pod's environment names (KUBERNETES_SERVICE_HOST and _PORT), else https://kubernetes.default.svc. */
    server: z
      .string()
      .regex(/^https?:\/\//, 'must be an http(s) URL')
      .optional(),
    /** The ServiceAccount token and the cluster's CA; the in-cluster paths by default. */
    tokenFile: z.string().min(1).default(SERVICE_ACCOUNT_TOKEN_FILE),
    caFile: z.string().min(1).default(SERVICE_ACCOUNT_CA_FILE),
    /** The only namespaces this relay reads for it, whatever the control plane asks (nodes are not namespaced). */
    namespaces: z
      .array(z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a namespace name'))
      .min(1)
      .optional(),
    capabilities: z.array(z.string()).min(1),
  })
  .strict();

const integration = z.union([httpIntegration, kubernetesIntegration, datastoreIntegration]);

const schema = z
  .object({
    /** The control plane's relay endpoint, host:port. */
    server: z.string().min(3),
    /** TLS: a CA file to trust (else the system's roots) and the name to expect. */
    tls: z.object({ caFile: z.string().optional(), serverName: z.string().optional() }).strict().optional(),
    /** Connect without TLS: local development only, and only if the control plane allows it. */
    plaintext: z.boolean().default(false),
    /** The one-time token to register with, when there is no registration yet (SVC_RELAY_BOOTSTRAP_TOKEN overrides it). */
    bootstrapToken: z.string().optional(),
    /** Where the registration (its credential) is kept; relative to this file. */
    stateFile: z.string().default('relay-state.json'),
    integrations: z.array(integration).default([]),
    /** Jobs run at once; more wait. */
    maxConcurrentJobs: z.number().int().min(1).max(256).default(8),
    /** How long a shutdown waits for running jobs (seconds). */
    drainTimeoutSeconds: z.number().int().min(0).max(600).default(10),
  })
  .strict();

export type RelayConfig = z.infer<typeof schema> & { stateFile: string; caFile?: string };
export type LocalIntegration = z.infer<typeof integration>;
export type LocalHttpIntegration = z.infer<typeof httpIntegration>;
export type LocalDatastore = z.infer<typeof datastoreIntegration>;
export type LocalKubernetes = z.infer<typeof kubernetesIntegration>;

export class RelayConfigError extends Error {}

/** Reads and checks the relay's configuration file; paths in it are relative to the file. */
export function loadRelayConfig(path: string, env: NodeJS.ProcessEnv = process.env): RelayConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RelayConfigError(`Cannot read the relay configuration ${path}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new RelayConfigError(
      `Invalid relay configuration ${path}:\n  ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('\n  ')}`,
    );
  }
  const config = parsed.data;
  const problems: string[] = [];
  config.integrations.forEach((i, index) => {
    if ('tenant' in i && i.tenant !== undefined && i.type !== 'loki') problems.push(`integrations.${index}.tenant: only a loki integration has a tenant`);
    for (const id of i.capabilities) {
      const definition = capabilityDefinition(id);
      if (!definition)
        problems.push(`integrations.${index}.capabilities: unknown capability ${id} (known: ${CAPABILITIES.map((c) => c.capabilityId).join(', ')})`);
      else if (definition.integrationType !== i.type) problems.push(`integrations.${index}.capabilities: ${id} is not a capability of ${i.type}`);
    }
  });
  if (new Set(config.integrations.map((i) => i.integrationId)).size !== config.integrations.length)
    problems.push('integrations: an integrationId appears twice');
  if (problems.length) throw new RelayConfigError(`Invalid relay configuration ${path}:\n  ${problems.join('\n  ')}`);
  const base = dirname(resolve(path));
  return {
    ...config,
    integrations: config.integrations.map((i) =>
      i.type === 'kubernetes' ? { ...i, tokenFile: resolve(base, i.tokenFile), caFile: resolve(base, i.caFile) } : i,
    ),
    bootstrapToken: env.SVC_RELAY_BOOTSTRAP_TOKEN || config.bootstrapToken,
    stateFile: resolve(base, config.stateFile),
    caFile: config.tls?.caFile ? resolve(base, config.tls.caFile) : undefined,
  };
}
