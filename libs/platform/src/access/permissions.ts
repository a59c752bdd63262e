import { Role, roleAtLeast } from './roles';

/**
 * Every permission the service checks, `<resource>:<action>`, with the least role that holds it.
 * Reads are Viewer; Editors work incidents, investigations, conversations and postmortems;
 * Admins change configuration and people (decisions §3).
 */
export const PERMISSIONS = {
  'organizations:read': 'viewer',
  'organizations:create': 'admin',
  'members:read': 'viewer',
  'members:write': 'admin',
  'sessions:revoke-others': 'admin',
  'policy:read': 'viewer',
  'policy:write': 'admin',
  'api-tokens:read': 'viewer',
  'api-tokens:write': 'admin',
  'audit-events:read': 'viewer',
  'integrations:read': 'viewer',
  'integrations:write': 'admin',
  'webhook-deliveries:read': 'viewer',
  'webhook-deliveries:replay': 'admin',
  'changes:read': 'viewer',
  'incidents:read': 'viewer',
  'incidents:merge': 'editor',
  'investigations:read': 'viewer',
  'investigations:open': 'editor',
  'investigations:cancel': 'editor',
  'conversations:read': 'viewer',
  'conversations:write': 'editor',
  'postmortems:read': 'viewer',
  'postmortems:write': 'editor',
  'relays:read': 'viewer',
  'relays:write': 'admin',
  'chat:recover': 'admin',
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSIONS;

export function minimumRole(permission: Permission): Role {
  return PERMISSIONS[permission];
}

export function permissionsOf(role: Role): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleAtLeast(role, PERMISSIONS[p]));
}
