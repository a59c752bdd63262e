import { EntityManager } from 'typeorm';

export interface ClaimState {
  status: string;
  claim: string | null;
}

/**
 * The investigation's status and the claim of the attempt working it; with `lock`, the row is
 * locked for the rest of the caller's transaction, so a write that follows is still that attempt's.
 */
export async function claimState(manager: EntityManager, organizationId: string, investigationId: string, options: { lock: boolean }): Promise<ClaimState | undefined> {
  const [row] = await manager.query(
    `SELECT status, claim FROM investigations WHERE organization_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
    [organizationId, investigationId],
  ) as ClaimState[];
  return row;
}

/** Still investigating under this attempt's claim (not cancelled, not taken over). */
export function heldBy(state: ClaimState | undefined, claim: string): boolean {
  return state?.status === 'investigating' && state.claim === claim;
}
