import type { ApiException, V1SubjectRulesReviewStatus } from '@kubernetes/client-node';
import { isKubernetesApiException, kubernetesApis, KubernetesAnswerTooLarge, KubernetesSend, kubernetesStatus, OutboundError } from '@svc/platform';

/** A read the Kubernetes tools make: the API group ('' for core), the resource (or subresource) and the verbs. */
export interface KubernetesRead {
  group: string;
  resource: string;
  verbs: string[];
  /** Not namespaced: granted by a ClusterRole only. */
  cluster?: boolean;
}

/** The read-only access the Kubernetes tools need, and nothing more (docs/operations.md gives the ClusterRole). */
export const KUBERNETES_READS: readonly KubernetesRead[] = [
  { group: '', resource: 'pods', verbs: ['get', 'list'] },
  { group: '', resource: 'pods/log', verbs: ['get'] },
  { group: '', resource: 'events', verbs: ['list'] },
  { group: 'events.k8s.io', resource: 'events', verbs: ['list'] },
  { group: 'apps', resource: 'deployments', verbs: ['get'] },
  { group: 'apps', resource: 'statefulsets', verbs: ['get'] },
  { group: 'apps', resource: 'daemonsets', verbs: ['get'] },
  { group: 'apps', resource: 'replicasets', verbs: ['get', 'list'] },
  { group: 'apps', resource: 'controllerrevisions', verbs: ['list'] },
  { group: '', resource: 'nodes', verbs: ['get'], cluster: true },
];

/** Namespaces reviewed at most (one review each). */
const MAX_REVIEWED = 8;

const REVIEWS = 'apis/authorization.k8s.io/v1/selfsubjectrulesreviews';

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

/** Whether a rule grants `verb` on the resource, as RBAC matches them (`*`, and `pods/*` for every subresource of pods); a rule limited to named objects does not. */
function grants(rule: Rule, group: string, resource: string, verb: string): boolean {
  if (rule.resourceNames?.length) return false;
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(group)) return false;
  const verbs = rule.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(verb)) return false;
  const resources = rule.resources ?? [];
  const [parent, sub] = resource.split('/');
  return resources.some((r) => r === '*' || r === resource || (sub !== undefined && r === `${parent}/*`));
}

/** What of KUBERNETES_READS the rules of one namespace's review do not grant, as `verb resource(.group)`. */
export function missingReads(rules: Rule[], reads: readonly KubernetesRead[] = KUBERNETES_READS): string[] {
  return reads.flatMap((read) =>
    read.verbs
      .filter((verb) => !rules.some((rule) => grants(rule, read.group, read.resource, verb)))
      .map((verb) => `${verb} ${read.resource}${read.group ? `.${read.group}` : ''}`),
  );
}

export interface KubernetesVerifyResult {
  outcome: 'succeeded' | 'failed';
  detail: string;
}

/** Why an error answer of the API server is what it is: the status's meaning, then the server's own message. */
function statusDetail(error: ApiException<unknown>): string {
  const status = kubernetesStatus(error.body);
  const meaning =
    error.code === 401
      ? 'the token was refused (expired, revoked, or not this cluster’s)'
      : error.code === 403
        ? 'the account may not review its own access (every authenticated account may, through system:basic-user: is this token one?)'
        : undefined;
  const own = status ? status.message : undefined;
  return `The Kubernetes API server answered HTTP ${error.code} at /${REVIEWS}${meaning ? `: ${meaning}` : ''}${own && !meaning ? `: ${own}` : ''}`;
}

/**
 * Verify for a Kubernetes integration: a SelfSubjectRulesReview (authorization.k8s.io/v1) in each
 * namespace the tools read (config.namespaces, else `default`, where a ClusterRoleBinding's rules
 * show), compared with what the tools need. It fails on no answer, 401, 403, an answer that is not
 * the API server's, and on any read missing, naming each; the review's own `incomplete` (a webhook
 * authorizer's rules it cannot list) is said, since access may then be wider than reported.
 */
export async function verifyKubernetes(send: KubernetesSend, config: Record<string, unknown>, where: string): Promise<KubernetesVerifyResult> {
  const configured = Array.isArray(config.namespaces) ? (config.namespaces as string[]) : undefined;
  const namespaces = (configured ?? ['default']).slice(0, MAX_REVIEWED);
  const apis = await kubernetesApis(send);
  const missing = new Map<string, string[]>();
  let incomplete = false;
  for (const namespace of namespaces) {
    let status: V1SubjectRulesReviewStatus | undefined;
    try {
      const review = await apis.authorization.createSelfSubjectRulesReview({
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } },
      });
      if (review?.kind !== 'SelfSubjectRulesReview' || !review.status)
        return { outcome: 'failed', detail: `The answer at /${REVIEWS}${where} is not a Kubernetes API server's` };
      status = review.status;
    } catch (error) {
      if (isKubernetesApiException(error)) return { outcome: 'failed', detail: `${statusDetail(error)}${where}` };
      if (error instanceof OutboundError) {
        const origin = error.origin ? ` at ${error.origin}` : '';
        return {
          outcome: 'failed',
          detail: error.kind === 'refused' ? `Refused: ${error.message}` : `Could not reach the Kubernetes API server${origin}: ${error.code ?? error.kind}`,
        };
      }
      if (error instanceof SyntaxError || error instanceof KubernetesAnswerTooLarge)
        return { outcome: 'failed', detail: `The answer at /${REVIEWS}${where} is not a Kubernetes API server's` };
      return { outcome: 'failed', detail: (error as Error).message };
    }
    incomplete ||= status.incomplete === true;
    const absent = missingReads(status.resourceRules ?? []);
    if (absent.length) missing.set(namespace, absent);
  }
  const scope = configured ? `namespace${namespaces.length === 1 ? '' : 's'} ${namespaces.join(', ')}` : 'every namespace (reviewed in default)';
  const partly = incomplete ? '; the API server said its list of rules is incomplete (a webhook authorizer), so access may be wider than reviewed' : '';
  const skipped = configured && configured.length > namespaces.length ? ` (the first ${namespaces.length} of ${configured.length} namespaces reviewed)` : '';
  if (missing.size === 0)
    return { outcome: 'succeeded', detail: `Kubernetes${where}: the account reads everything the tools need in ${scope}${skipped}${partly}` };
  const said = [...missing.entries()].map(([namespace, absent]) => `in ${namespace}: ${absent.join(', ')}`).join('; ');
  return { outcome: 'failed', detail: `Kubernetes${where}: the account lacks read access the tools need, ${said}${skipped}${partly}` };
}
