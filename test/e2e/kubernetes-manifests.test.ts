import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ClusterRole, ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { KUBERNETES_READS, missingReads } from '@svc/integrations';
import { AppConfig, loadConfig } from '@svc/platform';
import { capabilityDefinition } from '@svc/relays/protocol';
import { INVESTIGATIONS_QUEUE } from '@svc/investigations';
import { ROOT } from '../support/dist';

/**
 * The Kubernetes deployment under deploy/kubernetes, rendered offline with `kubectl kustomize` (no
 * cluster): every object of the base and of every overlay is validated against the Kubernetes
 * schemas (kubernetes-models; KEDA's for the ScaledObject), then what a schema cannot see is
 * checked across objects and against the code: selectors and labels, ports, probes, every Secret
 * and ConfigMap key a pod reads, the settings the service reads and validates, the Ingress against
 * docker/nginx.conf, and the worker autoscaler's query against the queue the code uses. The schema
 * validators check types, enums and required fields; they do not reject unknown fields.
 */

const KUBERNETES = join(ROOT, 'deploy/kubernetes');

const KUBECTL = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: any;
};

/** Every kind the manifests may hold, with its schema: an object of any other kind fails the test. */
const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
};

/**
 * Secrets a pod or the Ingress may name without the manifests creating them: the operator supplies
 * them, and docs/operations.md ("Kubernetes") says so. `svc-datastores` is missing only from the
 * base, which every control-plane overlay completes.
 */
const OPERATOR_SUPPLIED_SECRETS = ['svc-tls', 'svc-relay-endpoint-tls'];

interface Target {
  name: string;
  /** The kustomization's directory, relative to deploy/kubernetes. */
  dir: string;
  /** Components added to it for this render (a temporary kustomization). */
  components?: string[];
  relay?: boolean;
  /** A relay that reads the Kubernetes API of its cluster with its ServiceAccount's projected token. */
  readsKubernetes?: boolean;
  /** Secrets this render may name without holding them. */
  supplied?: string[];
}

const TARGETS: Target[] = [
  { name: 'base', dir: 'base', supplied: ['svc-datastores'] },
  { name: 'overlays/external-datastores', dir: 'overlays/external-datastores' },
  { name: 'overlays/in-cluster-datastores', dir: 'overlays/in-cluster-datastores' },
  { name: 'overlays/production', dir: 'overlays/production' },
  { name: 'overlays/production with components/relay-endpoint', dir: 'overlays/production', components: ['components/relay-endpoint'] },
  { name: 'overlays/relay', dir: 'overlays/relay', relay: true },
  { name: 'overlays/relay-in-cluster', dir: 'overlays/relay-in-cluster', relay: true, readsKubernetes: true },
];

const temporaryDirs: string[] = [];

function render(target: Target): K8sObject[] {
  let dir = join(KUBERNETES, target.dir);
  if (target.components) {
    // kustomize takes bases and components only by relative paths.
    const wrapper = mkdtempSync(join(tmpdir(), 'svc-kustomize-'));
    temporaryDirs.push(wrapper);
    const rel = (path: string) => relative(wrapper, join(KUBERNETES, path)).split('\\').join(posix.sep);
    writeFileSync(
      join(wrapper, 'kustomization.yaml'),
      ['resources:', `  - ${rel(target.dir)}`, 'components:', ...target.components.map((c) => `  - ${rel(c)}`), ''].join('\n'),
    );
    dir = wrapper;
  }
  const yaml = execFileSync(KUBECTL!, ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(yaml)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${target.name}: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null)
    .map((o) => {
      // kustomize folds long base64 values over lines, which Kubernetes' decoder skips (as Node's does); the schema's "byte" format does not.
      if (o.kind === 'Secret' && o.data) o.data = Object.fromEntries(Object.entries<string>(o.data).map(([k, v]) => [k, v.replace(/\s+/g, '')]));
      return o;
    });
}

const rendered = new Map<string, K8sObject[]>();
function objectsOf(target: Target): K8sObject[] {
  if (!rendered.has(target.name)) rendered.set(target.name, render(target));
  return rendered.get(target.name)!;
}

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

interface Workload {
  object: K8sObject;
  pod: IPodSpec;
  labels: Record<string, string>;
}
function workloads(objects: K8sObject[]): Workload[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet')
    .map((object) => ({ object, pod: object.spec.template.spec as IPodSpec, labels: object.spec.template.metadata?.labels ?? {} }));
}
function workload(objects: K8sObject[], name: string): Workload {
  const found = workloads(objects).find((w) => w.object.metadata.name === name);
  if (!found) throw new Error(`no workload ${name}`);
  return found;
}
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const containersOf = (pod: IPodSpec): IContainer[] => [...(pod.initContainers ?? []), ...pod.containers];
const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');

/** The environment a container starts with, resolved from the rendered ConfigMaps and Secrets (problems: what it names that is not there). */
function environment(objects: K8sObject[], container: IContainer): { env: Record<string, string>; problems: string[] } {
  const env: Record<string, string> = {};
  const problems: string[] = [];
  const data = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | undefined => {
    const object = named(objects, kind, name);
    if (!object) return undefined;
    const values: Record<string, string> = object.data ?? {};
    return kind === 'Secret' ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, decode(v)])) : values;
  };
  for (const source of container.envFrom ?? []) {
    const [kind, name] = source.configMapRef ? (['ConfigMap', source.configMapRef.name!] as const) : (['Secret', source.secretRef!.name!] as const);
    const values = data(kind, name);
    if (values) Object.assign(env, values);
    else problems.push(`${container.name}: envFrom ${kind} ${name} is not rendered`);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = variable.value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, ref: string) => env[ref] ?? whole);
      continue;
    }
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (!ref) continue;
    const kind = variable.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap';
    const values = data(kind, ref.name!);
    if (values && ref.key in values) env[variable.name] = values[ref.key];
    else problems.push(`${container.name}: ${variable.name} reads ${kind} ${ref.name} key ${ref.key}, which is not rendered`);
  }
  return { env, problems };
}

/** Every Secret and ConfigMap a pod names (env, envFrom, volumes). */
function podReferences(pod: IPodSpec): { kind: 'Secret' | 'ConfigMap'; name: string; key?: string; where: string }[] {
  const refs: { kind: 'Secret' | 'ConfigMap'; name: string; key?: string; where: string }[] = [];
  for (const c of containersOf(pod)) {
    for (const source of c.envFrom ?? []) {
      if (source.configMapRef) refs.push({ kind: 'ConfigMap', name: source.configMapRef.name!, where: `${c.name} envFrom` });
      if (source.secretRef) refs.push({ kind: 'Secret', name: source.secretRef.name!, where: `${c.name} envFrom` });
    }
    for (const v of c.env ?? []) {
      const s = v.valueFrom?.secretKeyRef;
      const m = v.valueFrom?.configMapKeyRef;
      if (s) refs.push({ kind: 'Secret', name: s.name!, key: s.key, where: `${c.name} ${v.name}` });
      if (m) refs.push({ kind: 'ConfigMap', name: m.name!, key: m.key, where: `${c.name} ${v.name}` });
    }
  }
  for (const volume of pod.volumes ?? []) {
    if (volume.secret) refs.push({ kind: 'Secret', name: volume.secret.secretName!, where: `volume ${volume.name}` });
    if (volume.configMap) refs.push({ kind: 'ConfigMap', name: volume.configMap.name!, where: `volume ${volume.name}` });
  }
  return refs;
}

/** The settings the service reads (every property of AppConfig, validated at boot). */
const SETTINGS = new Set(
  getMetadataStorage()
    .getTargetValidationMetadatas(AppConfig, '', true, false)
    .map((m) => m.propertyName),
);

/** Stand-ins for the placeholders, as an operator would write them. */
function withPlaceholdersReplaced(env: Record<string, string>): Record<string, string> {
  const stand: Record<string, string> = { SVC_SECRET_KEY: 'k'.repeat(48), SVC_BOOTSTRAP_CREDENTIAL: 'b'.repeat(24) };
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      v === 'REPLACE_ME' && stand[k] ? stand[k] : v.replace(/REPLACE_ME/g, 'replaced').replace(/replace-me/g, 'replaced'),
    ]),
  );
}

const source = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const docsSection = () => source('docs/operations.md').split(/^## Kubernetes$/m)[1] ?? '';

const SERVICE_CONTAINERS = ['api', 'worker', 'migrate'];

afterAll(() => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!KUBECTL)(`Kubernetes manifests under deploy/kubernetes${KUBECTL ? '' : ' (skipped: kubectl is not installed; .ci/run installs it)'}`, () => {
  it('renders every overlay and every component the directory holds', () => {
    const overlays = readdirSync(join(KUBERNETES, 'overlays')).map((d) => `overlays/${d}`);
    const components = readdirSync(join(KUBERNETES, 'components')).map((d) => `components/${d}`);
    expect(overlays.sort()).toEqual([...new Set(TARGETS.filter((t) => t.dir.startsWith('overlays/')).map((t) => t.dir))].sort());
    expect(components.sort()).toEqual([...new Set(TARGETS.flatMap((t) => t.components ?? []))].sort());
  });

  for (const target of TARGETS) {
    describe(`${target.name}`, () => {
      it('renders with kubectl kustomize, and every object is valid against the schema of its kind', () => {
        const objects = objectsOf(target);
        expect(objects.length).toBeGreaterThan(0);
        const problems: string[] = [];
        for (const object of objects) {
          const Model = MODELS[`${object.apiVersion}/${object.kind}`];
          if (!Model) {
            problems.push(`${object.kind} ${object.metadata.name}: no schema for ${object.apiVersion}/${object.kind}`);
            continue;
          }
          try {
            new Model(object).validate();
          } catch (error) {
            problems.push(`${object.kind} ${object.metadata.name}: ${(error as Error).message}`);
          }
        }
        expect(problems).toEqual([]);
      });

      it('gives every object a unique kind and name, and selects each workload’s pods with its own template labels', () => {
        const objects = objectsOf(target);
        const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
        expect(new Set(keys).size).toBe(keys.length);
        for (const w of workloads(objects)) {
          const selector: Record<string, string> = w.object.spec.selector.matchLabels;
          expect(selects(selector, w.labels), `${w.object.metadata.name}: selector ${JSON.stringify(selector)} vs ${JSON.stringify(w.labels)}`).toBe(true);
          const others = workloads(objects).filter((o) => o.object !== w.object && selects(selector, o.labels));
          expect(
            others.map((o) => o.object.metadata.name),
            `${w.object.metadata.name}'s selector also matches`,
          ).toEqual([]);
        }
      });

      it('names only Secrets and ConfigMaps (and keys) it renders, or that the operator supplies and the documentation says so', () => {
        const objects = objectsOf(target);
        const supplied = [...OPERATOR_SUPPLIED_SECRETS, ...(target.supplied ?? [])];
        const problems: string[] = [];
        const check = (kind: 'Secret' | 'ConfigMap', name: string, key: string | undefined, where: string) => {
          const object = named(objects, kind, name);
          if (!object) {
            if (!(kind === 'Secret' && supplied.includes(name))) problems.push(`${where}: ${kind} ${name} is not rendered`);
            return;
          }
          if (key !== undefined && !(key in (object.data ?? {}))) problems.push(`${where}: ${kind} ${name} has no key ${key}`);
        };
        for (const w of workloads(objects)) {
          for (const ref of podReferences(w.pod)) check(ref.kind, ref.name, ref.key, `${w.object.metadata.name} ${ref.where}`);
        }
        for (const ingress of ofKind(objects, 'Ingress')) {
          for (const tls of ingress.spec.tls ?? []) check('Secret', tls.secretName, undefined, `Ingress ${ingress.metadata.name} tls`);
        }
        expect(problems).toEqual([]);
        const docs = docsSection();
        for (const name of OPERATOR_SUPPLIED_SECRETS) expect(docs, `docs/operations.md "Kubernetes" names ${name}`).toContain(`\`${name}\``);
      });

      it('runs every container as a non-root user without privilege escalation or capabilities, on a read-only root filesystem, with requests and limits and no API token', () => {
        const problems: string[] = [];
        for (const w of workloads(objectsOf(target))) {
          const where = w.object.metadata.name;
          if (w.pod.automountServiceAccountToken !== false) problems.push(`${where}: mounts a service account token`);
          if (w.pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${where}: no RuntimeDefault seccomp profile`);
          for (const c of containersOf(w.pod)) {
            const at = `${where}/${c.name}`;
            const runAsNonRoot = c.securityContext?.runAsNonRoot ?? w.pod.securityContext?.runAsNonRoot;
            const runAsUser = c.securityContext?.runAsUser ?? w.pod.securityContext?.runAsUser;
            if (runAsNonRoot !== true || !runAsUser) problems.push(`${at}: not runAsNonRoot with a numeric non-zero runAsUser`);
            if (c.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${at}: privilege escalation allowed`);
            if (!c.securityContext?.capabilities?.drop?.includes('ALL')) problems.push(`${at}: capabilities not dropped`);
            if (c.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${at}: writable root filesystem`);
            for (const kind of ['requests', 'limits'] as const) {
              for (const resource of ['cpu', 'memory']) if (!c.resources?.[kind]?.[resource]) problems.push(`${at}: no ${resource} ${kind}`);
            }
          }
        }
        expect(problems).toEqual([]);
      });

      if (target.relay) {
        it('runs one relay, reading relay.json from the Secret it mounts and keeping its state file on a persistent volume', () => {
          const objects = objectsOf(target);
          const relay = workload(objects, 'svc-relay');
          expect(relay.object.spec.replicas).toBe(1);
          expect(relay.object.spec.strategy.type).toBe('Recreate');
          const [container] = relay.pod.containers;
          expect(container.command?.slice(0, 2)).toEqual(['node', 'dist/apps/relay/src/main.js']);
          expect(existsSync(join(ROOT, 'apps/relay/src/main.ts'))).toBe(true);
          const configPath = container.command![2];
          const mountOf = (path: string) =>
            container.volumeMounts!.filter((m) => path.startsWith(`${m.mountPath}/`)).sort((a, b) => b.mountPath.length - a.mountPath.length)[0];

          const configMount = mountOf(configPath);
          const configVolume = relay.pod.volumes!.find((v) => v.name === configMount.name)!;
          const secret = named(objects, 'Secret', configVolume.secret!.secretName!)!;
          const file = posix.relative(configMount.mountPath, configPath);
          expect(Object.keys(secret.data)).toContain(file);
          const config = JSON.parse(decode(secret.data[file]));
          // Every field is one the relay's configuration schema defines (apps/relay/src/relay-config.ts).
          const schema = source('apps/relay/src/relay-config.ts');
          for (const field of Object.keys(config)) expect(schema, `relay.json field ${field}`).toMatch(new RegExp(`^\\s+${field}: z\\.`, 'm'));
          expect(config.bootstrapToken).toBe('REPLACE_ME');

          // The state file (written through a temporary file beside it) lives on a writable persistent volume.
          const stateFile = posix.resolve(posix.dirname(configPath), config.stateFile);
          const stateMount = mountOf(stateFile);
          expect(stateMount.readOnly, `the state file's volume (${stateMount.mountPath}) is writable`).not.toBe(true);
          const stateVolume = relay.pod.volumes!.find((v) => v.name === stateMount.name)!;
          expect(named(objects, 'PersistentVolumeClaim', stateVolume.persistentVolumeClaim!.claimName)).toBeDefined();
          expect(relay.pod.securityContext?.fsGroup).toBe(relay.pod.securityContext?.runAsUser);
        });

        if (!target.readsKubernetes)
          it('gives the relay a ServiceAccount of its own with no token and no role, as it reads no Kubernetes API here', () => {
            const objects = objectsOf(target);
            const relay = workload(objects, 'svc-relay');
            const account = named(objects, 'ServiceAccount', relay.pod.serviceAccountName!);
            expect(account?.automountServiceAccountToken).toBe(false);
            expect(objects.filter((o) => /Role|RoleBinding/.test(o.kind))).toEqual([]);
            expect(relay.pod.volumes?.filter((v) => v.projected)).toEqual([]);
          });
        else
          it("gives the relay read-only access to what the Kubernetes tools read, and its token and CA where the relay's configuration expects them", () => {
            const objects = objectsOf(target);
            const relay = workload(objects, 'svc-relay');
            const account = named(objects, 'ServiceAccount', relay.pod.serviceAccountName!)!;
            // Only the relay's container gets the token, read-only, through the volume below.
            expect(account.automountServiceAccountToken).toBe(false);
            expect(relay.pod.automountServiceAccountToken).toBe(false);
            const [container] = relay.pod.containers;
            const mount = container.volumeMounts!.find((m) => m.mountPath === '/var/run/secrets/kubernetes.io/serviceaccount')!;
            expect(mount.readOnly).toBe(true);
            const sources = relay.pod.volumes!.find((v) => v.name === mount.name)!.projected!.sources!;
            expect(sources.find((s) => s.serviceAccountToken)?.serviceAccountToken?.path).toBe('token');
            expect(sources.find((s) => s.configMap)?.configMap?.items).toEqual([{ key: 'ca.crt', path: 'ca.crt' }]);
            const schema = source('apps/relay/src/relay-config.ts');
            expect(schema).toContain(`'${mount.mountPath}/token'`);
            expect(schema).toContain(`'${mount.mountPath}/ca.crt'`);

            // The ClusterRole grants every read the tools need (what verify reviews), with read verbs only, on nothing else.
            const bindings = ofKind(objects, 'ClusterRoleBinding').filter((b) =>
              b.subjects.some(
                (s: any) => s.kind === 'ServiceAccount' && s.name === account.metadata.name && s.namespace === (account.metadata as any).namespace,
              ),
            );
            expect(bindings).toHaveLength(1);
            const role = named(objects, 'ClusterRole', bindings[0].roleRef.name)!;
            expect(missingReads(role.rules)).toEqual([]);
            const needed = new Set(KUBERNETES_READS.map((r) => `${r.group}/${r.resource}`));
            for (const rule of role.rules as Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>) {
              expect(
                rule.verbs.every((v) => ['get', 'list', 'watch'].includes(v)),
                JSON.stringify(rule),
              ).toBe(true);
              for (const group of rule.apiGroups)
                for (const resource of rule.resources) expect(needed, `${group}/${resource}`).toContain(`${group}/${resource}`);
            }

            // relay.json serves a kubernetes integration with capabilities the relay knows.
            const secret = ofKind(objects, 'Secret').find((o) => o.metadata.name.startsWith('svc-relay-config'))!;
            const config = JSON.parse(decode(secret.data['relay.json']));
            const entry = config.integrations.find((i: { type: string }) => i.type === 'kubernetes');
            for (const capability of entry.capabilities) expect(capabilityDefinition(capability)?.integrationType, capability).toBe('kubernetes');
          });
        return;
      }

      it('starts the API and the worker after migrations run in an init container with the same settings', () => {
        const objects = objectsOf(target);
        for (const [name, main] of [
          ['svc-api', 'dist/apps/api/src/main.js'],
          ['svc-worker', 'dist/apps/worker/src/main.js'],
        ]) {
          const w = workload(objects, name);
          const [migrate] = w.pod.initContainers ?? [];
          expect(migrate?.command).toEqual(['node', 'dist/apps/launcher/src/migrate.js']);
          expect(w.pod.containers[0].command).toEqual(['node', main]);
          for (const script of [migrate.command![1], main])
            expect(existsSync(join(ROOT, script.replace(/^dist\//, '').replace(/\.js$/, '.ts'))), script).toBe(true);
          expect(migrate.image).toBe(w.pod.containers[0].image);
          expect(migrate.envFrom).toEqual(w.pod.containers[0].envFrom);
          const mainEnv = environment(objects, w.pod.containers[0]).env;
          const init = environment(objects, migrate).env;
          for (const key of ['DATABASE_URL', 'REDIS_URL', 'SVC_SECRET_KEY']) expect(init[key], `${name} migrate ${key}`).toBe(mainEnv[key]);
        }
      });

      it('gives the API, worker and migrations only settings the service reads, which pass its configuration check once the placeholders are replaced', () => {
        const objects = objectsOf(target);
        for (const w of workloads(objects)) {
          for (const c of containersOf(w.pod).filter((c) => SERVICE_CONTAINERS.includes(c.name))) {
            const { env, problems } = environment(objects, c);
            if (target.supplied?.includes('svc-datastores')) {
              // The base alone: the overlay provides these.
              expect(
                problems.every((p) => p.includes('svc-datastores')),
                problems.join('; '),
              ).toBe(true);
              Object.assign(env, { DATABASE_URL: 'postgres://svc:pw@postgres:5432/svc', REDIS_URL: 'redis://redis:6379' });
            } else {
              expect(problems).toEqual([]);
            }
            expect(
              Object.keys(env).filter((k) => !SETTINGS.has(k)),
              `${w.object.metadata.name}/${c.name}: settings the service does not read`,
            ).toEqual([]);
            expect(() => loadConfig(withPlaceholdersReplaced(env)), `${w.object.metadata.name}/${c.name}`).not.toThrow();
          }
        }
      });

      it('refuses to start with the placeholder secrets left in place, naming them', () => {
        const objects = objectsOf(target);
        const api = workload(objects, 'svc-api');
        const { env } = environment(objects, api.pod.containers[0]);
        expect(env.SVC_SECRET_KEY).toBe('REPLACE_ME');
        expect(() => loadConfig({ ...env, DATABASE_URL: 'postgres://postgres:5432/svc', REDIS_URL: 'redis://redis:6379' })).toThrow(
          /SVC_SECRET_KEY=\(hidden\)[\s\S]*SVC_BOOTSTRAP_CREDENTIAL=\(hidden\)|SVC_BOOTSTRAP_CREDENTIAL=\(hidden\)[\s\S]*SVC_SECRET_KEY=\(hidden\)/,
        );
      });

      it('probes the API’s liveness on /healthz and readiness on /readyz at the port it listens on, and the Service targets that port', () => {
        const objects = objectsOf(target);
        const api = workload(objects, 'svc-api');
        const container = api.pod.containers.find((c) => c.name === 'api')!;
        const port = Number(environment(objects, container).env.PORT);
        const http = container.ports!.find((p) => p.name === 'http');
        expect(http?.containerPort).toBe(port);
        const probePort = (probe: (typeof container)['livenessProbe']) => {
          const p = probe?.httpGet?.port;
          return typeof p === 'string' ? container.ports!.find((q) => q.name === p)?.containerPort : p;
        };
        expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
        expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
        for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) expect(probePort(probe)).toBe(port);
        // /readyz waits up to a second for each dependency.
        expect(container.readinessProbe!.timeoutSeconds).toBeGreaterThan(1);

        const service = named(objects, 'Service', 'svc-api')!;
        expect(selects(service.spec.selector, api.labels)).toBe(true);
        const servicePort = service.spec.ports.find((p: { name: string }) => p.name === 'http');
        const target_ = servicePort.targetPort;
        expect(typeof target_ === 'string' ? container.ports!.find((p) => p.name === target_)?.containerPort : target_).toBe(port);
      });

      it('points every Service at the pods of one workload and at ports those pods declare', () => {
        const objects = objectsOf(target);
        for (const service of ofKind(objects, 'Service')) {
          const matching = workloads(objects).filter((w) => selects(service.spec.selector ?? {}, w.labels));
          expect(matching.length, `Service ${service.metadata.name}`).toBe(1);
          const ports = matching[0].pod.containers.flatMap((c) => c.ports ?? []);
          for (const p of service.spec.ports) {
            const found = typeof p.targetPort === 'string' ? ports.find((q) => q.name === p.targetPort) : ports.find((q) => q.containerPort === p.targetPort);
            expect(found, `Service ${service.metadata.name} port ${p.name}`).toBeDefined();
          }
        }
      });

      it('routes the public host to the API with TLS and the event-stream settings of docker/nginx.conf, and refuses /metrics', () => {
        const objects = objectsOf(target);
        const api = workload(objects, 'svc-api');
        const env = environment(objects, api.pod.containers[0]).env;
        const host = new URL(env.SVC_PUBLIC_URL).host;
        expect(new URL(env.SVC_PUBLIC_URL).protocol).toBe('https:');
        const ingress = named(objects, 'Ingress', 'svc-api')!;
        expect(ingress.spec.tls.flatMap((t: { hosts: string[] }) => t.hosts)).toContain(host);
        const [rule] = ingress.spec.rules;
        expect(rule.host).toBe(host);
        const [path] = rule.http.paths;
        expect([path.path, path.pathType]).toEqual(['/', 'Prefix']);
        const service = named(objects, 'Service', path.backend.service.name)!;
        expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(path.backend.service.port.name);
        expect(selects(service.spec.selector, api.labels)).toBe(true);

        const nginx = source('docker/nginx.conf');
        // The settings of `location /` (everything but the console's static files), and the server's body limit.
        const streaming = /location \/ \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
        const directive = (name: string, within = streaming) => new RegExp(`^\\s*${name}\\s+([^;]+);`, 'm').exec(within)?.[1];
        const annotations = ingress.metadata.annotations!;
        expect(directive('proxy_buffering')).toBe('off');
        expect(annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
        expect(`${annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']}s`).toBe(directive('proxy_read_timeout'));
        expect(`${annotations['nginx.ingress.kubernetes.io/proxy-send-timeout']}s`).toBe(directive('proxy_send_timeout'));
        expect(annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe(directive('client_max_body_size', nginx));
        // The stream's heartbeat comes well within the read timeout, and a stalled reader is dropped by the API no later than by the proxy.
        const config = loadConfig(withPlaceholdersReplaced({ ...env, DATABASE_URL: 'postgres://svc@postgres:5432/svc', REDIS_URL: 'redis://redis:6379' }));
        expect(config.SVC_STREAM_HEARTBEAT_SECONDS * 2).toBeLessThanOrEqual(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout']));
        expect(config.SVC_STREAM_WRITE_DEADLINE_SECONDS).toBeLessThanOrEqual(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout']));

        const metrics = named(objects, 'Ingress', 'svc-api-metrics')!;
        expect(metrics.spec.rules[0].host).toBe(host);
        expect(metrics.spec.rules[0].http.paths[0]).toMatchObject({ path: '/metrics', pathType: 'Exact' });
        expect(metrics.metadata.annotations!['nginx.ingress.kubernetes.io/denylist-source-range']).toBe('0.0.0.0/0,::/0');
      });

      it('scales the API on CPU with an HPA and the workers on the investigation queue with KEDA, leaving replicas to them', () => {
        const objects = objectsOf(target);
        const hpa = named(objects, 'HorizontalPodAutoscaler', 'svc-api')!;
        expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'svc-api' });
        expect(hpa.spec.metrics).toEqual([
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } },
        ]);
        expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
        expect(workload(objects, 'svc-api').pod.containers[0].resources?.requests?.cpu).toBeDefined();

        const scaled = named(objects, 'ScaledObject', 'svc-worker')!;
        expect(scaled.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'svc-worker' });
        // The worker relays the outbox to the queues: with none, the queue would never grow to wake one.
        expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
        expect(scaled.spec.maxReplicaCount).toBeGreaterThan(scaled.spec.minReplicaCount);
        expect(scaled.spec.fallback.replicas).toBeGreaterThanOrEqual(scaled.spec.minReplicaCount);
        expect(scaled.spec.fallback.replicas).toBeLessThanOrEqual(scaled.spec.maxReplicaCount);
        for (const name of ['svc-api', 'svc-worker']) expect(workload(objects, name).object.spec.replicas, `${name} replicas`).toBeUndefined();
      });

      it('reads the queue depth of the queue the code uses from the API’s svc_queue_jobs, per worker concurrency', () => {
        const objects = objectsOf(target);
        const concurrency = /const CONCURRENCY = (\d+);/.exec(source('libs/investigations/src/engine/investigation.processor.ts'))?.[1];
        expect(concurrency).toBeDefined();
        // The gauge the API exports, and the states the query adds are ones it sets.
        const metrics = source('libs/platform/src/queue/queue-metrics.ts');
        expect(metrics).toContain(`name: 'svc_queue_jobs'`);
        for (const state of ['outbox', 'waiting', 'active']) expect(metrics).toMatch(new RegExp(`\\b${state}: `));

        const [trigger] = named(objects, 'ScaledObject', 'svc-worker')!.spec.triggers;
        expect(trigger.type).toBe('prometheus');
        // Every API replica reports the same figures: the max of each state across them, added up.
        expect(trigger.metadata.query).toBe(`sum(max by (state) (svc_queue_jobs{queue="${INVESTIGATIONS_QUEUE}",state=~"outbox|waiting|active"}))`);
        expect(trigger.metadata.threshold).toBe(concurrency);
        // No result (no API pod scraped, the queues unreadable) is an error, for which KEDA holds the fallback replicas.
        expect(trigger.metadata.ignoreNullValues).toBe('false');
      });

      it('has Prometheus scrape /metrics on the API pods, at the port the API listens on', () => {
        const objects = objectsOf(target);
        const api = workload(objects, 'svc-api');
        const container = api.pod.containers.find((c) => c.name === 'api')!;
        const port = Number(environment(objects, container).env.PORT);
        expect(container.ports!.find((p) => p.name === 'http')?.containerPort).toBe(port);
        expect(api.object.spec.template.metadata.annotations).toMatchObject({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(port),
          'prometheus.io/path': '/metrics',
        });
      });

      it('keeps a PodDisruptionBudget over the API pods and one over the worker pods', () => {
        const objects = objectsOf(target);
        const budgets = ofKind(objects, 'PodDisruptionBudget');
        const covered = new Map<string, string>();
        for (const pdb of budgets) {
          const matching = workloads(objects).filter((w) => selects(pdb.spec.selector.matchLabels, w.labels));
          expect(matching.length, `PodDisruptionBudget ${pdb.metadata.name}`).toBe(1);
          covered.set(matching[0].object.metadata.name, pdb.metadata.name);
          expect(pdb.spec.maxUnavailable ?? pdb.spec.minAvailable).toBeDefined();
        }
        expect(covered.get('svc-api')).toBeDefined();
        expect(covered.get('svc-worker')).toBeDefined();
      });

      if (target.dir === 'overlays/in-cluster-datastores') {
        it('connects the service to the in-cluster PostgreSQL and Redis with the password the server is given, and admits only the service’s pods to them', () => {
          const objects = objectsOf(target);
          const api = workload(objects, 'svc-api');
          const env = environment(objects, api.pod.containers[0]).env;
          const database = new URL(env.DATABASE_URL);
          const postgres = workload(objects, 'svc-postgres');
          const server = environment(objects, postgres.pod.containers[0]).env;
          expect(decodeURIComponent(database.password)).toBe(server.POSTGRES_PASSWORD);
          expect(database.username).toBe(server.POSTGRES_USER);
          expect(database.pathname).toBe(`/${server.POSTGRES_DB}`);
          const pgService = named(objects, 'Service', database.hostname)!;
          expect(pgService.spec.ports.map((p: { port: number }) => p.port)).toContain(Number(database.port));
          expect(selects(pgService.spec.selector, postgres.labels)).toBe(true);
          const redis = new URL(env.REDIS_URL);
          const redisService = named(objects, 'Service', redis.hostname)!;
          expect(redisService.spec.ports.map((p: { port: number }) => p.port)).toContain(Number(redis.port));
          expect(selects(redisService.spec.selector, workload(objects, 'svc-redis').labels)).toBe(true);

          for (const [policyName, store, clients] of [
            ['svc-postgres', 'svc-postgres', ['svc-api', 'svc-worker']],
            ['svc-redis', 'svc-redis', ['svc-api', 'svc-worker']],
          ] as const) {
            const policy = named(objects, 'NetworkPolicy', policyName)!;
            const guarded = workloads(objects).filter((w) => selects(policy.spec.podSelector.matchLabels, w.labels));
            expect(guarded.map((w) => w.object.metadata.name)).toEqual([store]);
            const [rule] = policy.spec.ingress;
            const admitted = workloads(objects)
              .filter((w) => rule.from.some((f: { podSelector: { matchLabels: Record<string, string> } }) => selects(f.podSelector.matchLabels, w.labels)))
              .map((w) => w.object.metadata.name);
            expect(admitted.sort()).toEqual([...clients].sort());
            const declared = guarded[0].pod.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
            for (const p of rule.ports) expect(declared).toContain(p.port);
          }
        });
      }

      if (target.dir === 'overlays/production') {
        it('pins the service image to a registry and a version', () => {
          const objects = objectsOf(target);
          for (const name of ['svc-api', 'svc-worker']) {
            for (const c of containersOf(workload(objects, name).pod)) expect(c.image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/.+:\d+\.\d+\.\d+$/);
          }
        });
      }

      if (target.components?.includes('components/relay-endpoint')) {
        it('serves the relay endpoint with TLS from a mounted Secret on a port the Service exposes', () => {
          const objects = objectsOf(target);
          const api = workload(objects, 'svc-api');
          const container = api.pod.containers[0];
          const env = environment(objects, container).env;
          const grpc = container.ports!.find((p) => p.name === 'grpc');
          expect(grpc?.containerPort).toBe(Number(env.SVC_RELAY_GRPC_PORT));
          for (const file of [env.SVC_RELAY_TLS_CERT_FILE, env.SVC_RELAY_TLS_KEY_FILE]) {
            const mount = container.volumeMounts!.find((m) => posix.dirname(file) === m.mountPath)!;
            const volume = api.pod.volumes!.find((v) => v.name === mount.name)!;
            expect(volume.secret?.secretName).toBe('svc-relay-endpoint-tls');
            // A kubernetes.io/tls Secret holds tls.crt and tls.key.
            expect(['tls.crt', 'tls.key']).toContain(posix.basename(file));
          }
          expect(env.SVC_RELAY_ALLOW_PLAINTEXT).toBeUndefined();
          const service = named(objects, 'Service', 'svc-relay-endpoint')!;
          expect(selects(service.spec.selector, api.labels)).toBe(true);
          expect(service.spec.ports[0].targetPort).toBe('grpc');
        });
      }
    });
  }

  it('renders no queue exporter: the worker autoscaler reads the API’s own /metrics', () => {
    for (const target of TARGETS) {
      const exporters = objectsOf(target).filter(
        (o) => o.metadata.name === 'svc-queue-exporter' || o.metadata.labels?.['app.kubernetes.io/component'] === 'queue-exporter',
      );
      expect(
        exporters.map((o) => `${o.kind}/${o.metadata.name}`),
        target.name,
      ).toEqual([]);
    }
  });

  it('ships placeholders in every Secret, never a value that could be a real credential', () => {
    const credentialFree = (text: string) => {
      try {
        const url = new URL(text);
        return url.protocol !== 'http:' && url.protocol !== 'https:' && url.password === '';
      } catch {
        return false;
      }
    };
    const problems: string[] = [];
    for (const target of TARGETS) {
      for (const secret of ofKind(objectsOf(target), 'Secret')) {
        for (const [key, value] of Object.entries<string>(secret.data ?? {})) {
          const text = decode(value);
          // Empty (an optional setting left unset), a REPLACE_ME placeholder, or a datastore URL with no password in it.
          if (text !== '' && !text.includes('REPLACE_ME') && !credentialFree(text)) problems.push(`${target.name}: Secret ${secret.metadata.name} key ${key}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
