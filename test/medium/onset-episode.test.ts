import { afterAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import type { Scenario } from '../../eval/scenarios';
import { CHECKOUT_ERROR_RULE } from '../support/checkout-errors';
import { shop } from '../../eval/shop';
import { directSession } from '../support/direct-session';

const MINUTE = 60;

const rule = CHECKOUT_ERROR_RULE;

/**
 * checkout failed a third of its requests for one minute 70 minutes before the end of the data
 * (too short to page), recovered, and then 2.15.0, rolled out 38 minutes before the end, failed a
 * tenth of them until the alert fired. The alert belongs to the second episode.
 */
const scenario: Scenario = {
  name: 'checkout-blip-then-bad-version',
  family: 'rollout',
  story: 'An earlier one-minute error blip of checkout, then checkout 2.15.0 failing requests from its rollout on.',
  redHerrings: ['an earlier, separate episode of the same condition'],
  seed: 131,
  build(end) {
    const c = shop(end, this.seed, { workloads: ['checkout', 'payments', 'inventory'] });
    const checkout = c.workload('checkout');
    const blip = c.ago(70);
    const fresh = c.rollout(checkout, c.ago(38), { version: '2.15.0' });
    checkout.effects = {
      errors: (t, pod) => (t >= blip && t < blip + MINUTE ? { '500': 0.35 } : fresh.includes(pod) ? { '500': 0.11 } : undefined),
    };
    return c;
  },
  rule,
  truth: { values: [['2.15.0']], series: /_build_info/ },
};

/**
 * The onset the built-in reasoner dates is the start of the episode the alert belongs to (the
 * condition's last rise before the alert fired), read from a real Prometheus: an earlier,
 * separate episode of the same condition within the window does not move it.
 */
describe('the onset of the episode the alert belongs to', () => {
  let staged: StagedPrometheus | undefined;

  afterAll(async () => {
    await staged?.stop();
  });

  it('dates the onset at the rise that led to the alert and finds the version behind it, past an earlier blip', async () => {
    staged = await stagePrometheus(scenario);
    const alerts = await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end);
    // The blip did not page: the only alert is the bad version's.
    expect(alerts).toHaveLength(1);
    const page = alerts[0];
    const rollout = staged.end - 38 * MINUTE;
    expect(page.activeAt).toBeGreaterThan(rollout);

    const session = directSession(staged.prometheus.url, page, []);
    // The earlier episode is inside the investigation's window.
    expect(session.window.from.epochMicros).toBeLessThan(BigInt(staged.end - 70 * MINUTE) * 1_000_000n);
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const symptom = conclusion.findings.find((f) => f.kind === 'symptom');
    const onset = Date.parse(/began to hold at (\S+)$/.exec(symptom?.statement ?? '')?.[1] ?? '') / 1000;
    expect(onset).toBeGreaterThanOrEqual(rollout);
    expect(onset).toBeLessThanOrEqual(page.activeAt + MINUTE);
    const cause = conclusion.findings.find((f) => f.kind === 'cause');
    expect(cause?.statement).toContain('2.15.0');
    expect(conclusion.conclusionStatus).toBe('verified_cause');
  }, 120_000);

  it('takes the onset from an alert raised when the condition no longer held, not from its earlier episode', async () => {
    staged ??= await stagePrometheus(scenario);
    const [paged] = await deriveAlerts(staged.prometheus.url, rule, staged.start, staged.end);
    // Raised by hand for checkout 45 minutes before the end: the blip ended 25 minutes before, the bad version came 7 minutes after.
    const at = staged.end - 45 * MINUTE;
    const page = { ...paged, activeAt: at, firedAt: at, resolvedAt: null };
    const session = directSession(staged.prometheus.url, page, []);
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);

    const onset = conclusion.plot?.onsetAt ? Date.parse(conclusion.plot.onsetAt) / 1000 : NaN;
    expect(onset).toBe(at);
    const said = conclusion.limitations.map((l) => l.statement).find((s) => s.startsWith("The rule's condition did not hold when the alert fired"));
    const last = Date.parse(/last held at (\S+)\)/.exec(said ?? '')?.[1] ?? '') / 1000;
    expect(last).toBeGreaterThanOrEqual(staged.end - 70 * MINUTE);
    expect(last).toBeLessThan(staged.end - 68 * MINUTE);
    // The version came after the alert: it is no cause of it.
    expect(
      conclusion.findings
        .filter((f) => f.kind === 'cause')
        .map((f) => f.statement)
        .join(' '),
    ).not.toContain('2.15.0');
  }, 120_000);
});
