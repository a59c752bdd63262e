import type { ClaimState } from '../investigations.repository';

/** Still investigating under this attempt's claim (not cancelled, not taken over). */
export function heldBy(state: ClaimState | undefined, claim: string): boolean {
  return state?.status === 'investigating' && state.claim === claim;
}
