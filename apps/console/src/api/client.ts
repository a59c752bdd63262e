import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];
export type Permission = Schemas['PermissionsView']['permissions'][number];

let organization: string | null = null;

/** The Organization every request addresses (X-Svc-Organization); null: the session's active one. */
export function setOrganization(id: string | null): void {
  organization = id;
}

export function currentOrganization(): string | null {
  return organization;
}

const organizationHeader: Middleware = {
  onRequest({ request }) {
    if (organization) request.headers.set('X-Svc-Organization', organization);
    return request;
  },
};

/** The typed client of the API (same origin: the session cookie and the browser's Origin header do the rest). */
export const api = createClient<paths>({ baseUrl: '' });
api.use(organizationHeader);

/** The person-facing text of a failed call: the contract's `error`, else the status. */
export function errorText(error: unknown, response?: Response): string {
  if (error && typeof error === 'object' && 'error' in error && typeof (error as { error: unknown }).error === 'string') {
    return (error as { error: string }).error;
  }
  if (error instanceof Error) return error.message;
  return response ? `The service answered ${response.status} ${response.statusText}` : 'The service could not be reached';
}

/** A path on the Organization's alias (for links and the event stream, which cannot send headers). */
export function organizationPath(path: string): string {
  return organization ? path.replace('/api/v1/', `/api/v1/organizations/${encodeURIComponent(organization)}/`) : path;
}
