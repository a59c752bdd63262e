import { CONVENTION_SCENARIOS } from './convention-scenarios';
import { DATASTORE_SCENARIOS } from './datastore-scenarios';
import { HOLDOUT_SHAPE_SCENARIOS } from './holdout/shape-scenarios';
import { Scenario, SCENARIOS } from './scenarios';
import { SHAPE_SCENARIOS } from './shape-scenarios';

/**
 * The evaluation's suites: `own` (the generator's default conventions, eval/scenarios.ts, and
 * the incidents whose cause only a datastore shows, eval/datastore-scenarios.ts),
 * `conventions-dev` (other conventions; the reasoner may be tuned on them),
 * `conventions-holdout` (other conventions; only their totals are ever looked at), `shapes-dev`
 * (telemetry shapes real clusters have, eval/shapes.ts and eval/shape-scenarios.ts; may be tuned
 * on) and `shapes-holdout` (the same shapes named otherwise, eval/holdout/; only totals are looked
 * at, and no string of theirs may appear elsewhere: eval/holdout/README.md).
 */
export const SUITES = ['own', 'conventions-dev', 'conventions-holdout', 'shapes-dev', 'shapes-holdout'] as const;

export type Suite = (typeof SUITES)[number];

export function suiteOf(scenario: Scenario): Suite {
  if (scenario.shape) return scenario.split === 'holdout' ? 'shapes-holdout' : 'shapes-dev';
  if (scenario.split === 'dev') return 'conventions-dev';
  if (scenario.split === 'holdout') return 'conventions-holdout';
  return 'own';
}

/** How a scenario's telemetry is named: its labelling (shapes), its convention, `prometheus-client` for the generator's default. */
export function conventionOf(scenario: Scenario): string {
  return scenario.labelling ?? scenario.convention ?? 'prometheus-client';
}

export const ALL_SCENARIOS: Scenario[] = [...SCENARIOS, ...DATASTORE_SCENARIOS, ...CONVENTION_SCENARIOS, ...SHAPE_SCENARIOS, ...HOLDOUT_SHAPE_SCENARIOS];
