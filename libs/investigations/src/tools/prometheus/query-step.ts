/** The longest PromQL expression the Prometheus tools accept. */
export const MAX_QUERY_CHARS = 8192;
/** Prometheus refuses a range query of more than 11,000 points per series. */
export const MAX_POINTS_PER_SERIES = 11_000;
/** The default step keeps a series at or under this many points: enough to see a shape, small enough to read. */
export const DEFAULT_POINTS_PER_SERIES = 250;

const NICE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

export interface StepChoice {
  step: number;
  /** The requested step when it was raised to respect MAX_POINTS_PER_SERIES. */
  raisedFrom?: number;
}

/**
 * The step for a range of `rangeSeconds`: the requested one raised only as far as Prometheus's
 * point limit needs, or else the smallest round step (1 s, 2 s, 5 s, … 1 d) that keeps
 * DEFAULT_POINTS_PER_SERIES points or fewer.
 */
export function chooseStep(rangeSeconds: number, requested?: number): StepChoice {
  const smallestAllowed = Math.ceil((rangeSeconds / MAX_POINTS_PER_SERIES) * 1000) / 1000;
  if (requested !== undefined) return requested >= smallestAllowed ? { step: requested } : { step: smallestAllowed, raisedFrom: requested };
  const wanted = rangeSeconds / (DEFAULT_POINTS_PER_SERIES - 1);
  const nice = NICE_STEPS.find((step) => step >= wanted) ?? Math.ceil(wanted / 86400) * 86400;
  return { step: Math.max(nice, smallestAllowed) };
}
