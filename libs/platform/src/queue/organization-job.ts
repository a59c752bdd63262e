import type { Job } from 'bull';
import { isOrganizationId } from '../organization-id';

/** What every job carries: the Organization it works for, and its own data. */
export interface OrganizationJobData<T = Record<string, unknown>> {
  organizationId: string;
  payload: T;
}

export class JobWithoutOrganizationError extends Error {}

/**
 * Unwraps a job for its processor. A job without a valid Organization is a bug upstream: it is
 * discarded (never retried) and fails loudly.
 */
export function unwrapOrganizationJob<T>(job: Job<OrganizationJobData<T>>): OrganizationJobData<T> {
  const data = job.data as Partial<OrganizationJobData<T>> | undefined;
  if (!data || !isOrganizationId(data.organizationId)) {
    job.discard();
    throw new JobWithoutOrganizationError(`Job ${job.name} (${String(job.id)}) carries no Organization; refused`);
  }
  return { organizationId: data.organizationId, payload: (data.payload ?? {}) as T };
}
