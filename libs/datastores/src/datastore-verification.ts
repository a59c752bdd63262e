/** What verify found: reachable, and whether the account is read-only enough, in one sentence. */
export interface DatastoreVerification {
  outcome: 'succeeded' | 'failed';
  detail: string;
}
