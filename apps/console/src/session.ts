import { createContext, useContext } from 'react';
import type { Permission, Schemas } from './api/client';

export interface SessionState {
  session: Schemas['CurrentSessionView'];
  organizations: Schemas['OrganizationView'][];
  organization: Schemas['OrganizationView'] | null;
  permissions: Set<Permission>;
  switchOrganization: (id: string) => void;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in view');
  return value;
}

/** Whether the person's role in the Organization has `permission` (what it lacks is not offered). */
export function useCan(): (permission: Permission) => boolean {
  const { permissions } = useSession();
  return (permission) => permissions.has(permission);
}
