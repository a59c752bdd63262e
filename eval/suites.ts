import { CONVENTION_SCENARIOS } from './convention-scenarios';
import { DATASTORE_SCENARIOS } from './datastore-scenarios';
import { Scenario, SCENARIOS } from './scenarios';

/**
 * The evaluation's suites: `own` (the generator's default conventions, eval/scenarios.ts, and
 * the incidents whose cause only a datastore shows, eval/datastore-scenarios.ts),
 * `conventions-dev` (other conventions; the reasoner may be tuned on them) and
 * `conventions-holdout` (other conventions; only their totals are ever looked at).
 */
export const SUITES = ['own', 'conventions-dev', 'conventions-holdout'] as const;

export type Suite = (typeof SUITES)[number];

export function suiteOf(scenario: Scenario): Suite {
  if (scenario.split === 'dev') return 'conventions-dev';
  if (scenario.split === 'holdout') return 'conventions-holdout';
  return 'own';
}

/** How a scenario's telemetry is named: its convention, `prometheus-client` for the generator's default. */
export function conventionOf(scenario: Scenario): string {
  return scenario.convention ?? 'prometheus-client';
}

export const ALL_SCENARIOS: Scenario[] = [...SCENARIOS, ...DATASTORE_SCENARIOS, ...CONVENTION_SCENARIOS];
