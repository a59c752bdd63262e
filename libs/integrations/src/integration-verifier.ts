import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '@svc/platform';
import { IntegrationType } from './catalog/integration-types';

export type HttpCredentials = { bearerToken: string } | { username: string; password: string };

export interface VerifyResult {
  outcome: 'succeeded' | 'failed';
  detail: string;
}

const TIMEOUT_MS = 5000;

/** What verify asks of each type, and how to read the answer. */
const PROBES: Record<string, { path: string; read: (body: unknown) => string | undefined; product: string }> = {
  prometheus: { path: 'api/v1/status/buildinfo', product: 'Prometheus', read: (b) => (b as { data?: { version?: string } }).data?.version },
  alertmanager: { path: 'api/v2/status', product: 'Alertmanager', read: (b) => (b as { versionInfo?: { version?: string } }).versionInfo?.version },
  grafana: { path: 'api/health', product: 'Grafana', read: (b) => (b as { version?: string }).version },
};

export function authorizationHeader(credentials: HttpCredentials | null): Record<string, string> {
  if (!credentials) return {};
  if ('bearerToken' in credentials) return { authorization: `Bearer ${credentials.bearerToken}` };
  return { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` };
}

/**
 * Contacts the system behind an integration with its stored credentials and reports what it
 * found: the product and version on success, the HTTP status or network error otherwise.
 */
@Injectable()
export class IntegrationVerifier {
  async verify(type: IntegrationType, config: Record<string, unknown>, credentials: HttpCredentials | null): Promise<VerifyResult> {
    const probe = PROBES[type.id];
    if (!probe)
      throw new InvalidInputError(
        `${type.displayName} integrations only receive alerts: there is no system to contact. Send a test alert to the webhook instead`,
      );
    const baseUrl = typeof config.baseUrl === 'string' ? config.baseUrl : undefined;
    if (!baseUrl) throw new InvalidInputError('Set config.baseUrl to verify this integration');
    const url = new URL(probe.path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    try {
      const res = await fetch(url, {
        headers: { accept: 'application/json', ...authorizationHeader(credentials) },
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
      if (!res.ok) return { outcome: 'failed', detail: `${probe.product} answered HTTP ${res.status} at ${url.pathname}` };
      const version = probe.read(await res.json().catch(() => undefined));
      if (!version) return { outcome: 'failed', detail: `The answer at ${url.pathname} is not ${probe.product}'s` };
      return { outcome: 'succeeded', detail: `${probe.product} ${version}` };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return { outcome: 'failed', detail: `Could not reach ${url.origin}: ${cause === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000} s` : cause}` };
    }
  }
}
