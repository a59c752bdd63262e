import { afterAll, describe, expect, it } from 'vitest';
import { checkConclusion } from '@svc/investigations/engine/conclusion-check';
import { BuiltInReasoner } from '@svc/investigations/reasoning/built-in-reasoner';
import { deriveAlerts, score, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { directSession } from '../support/direct-session';

/**
 * Each cause detector of the built-in reasoner against the evaluation scenario of its family:
 * three hours of kube-prometheus data backfilled into a real Prometheus, the alerts Alertmanager
 * would have delivered, and the reasoner reading that Prometheus through the investigation tools
 * within the default budgets. The conclusion is checked as the worker checks it before storing it.
 */
describe('cause detectors on generated incidents', () => {
  const staged: StagedPrometheus[] = [];

  afterAll(async () => {
    for (const s of staged) await s.stop();
  });

  const investigate = async (name: string) => {
    const scenario = SCENARIOS.find((s) => s.name === name)!;
    const prometheus = await stagePrometheus(scenario);
    staged.push(prometheus);
    const [pages, ...others] = await Promise.all(
      [scenario.rule, ...(scenario.otherRules ?? [])].map((r) => deriveAlerts(prometheus.prometheus.url, r, prometheus.start, prometheus.end)),
    );
    const session = directSession(prometheus.prometheus.url, pages[0], others.flat());
    const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    const result = score(scenario, { id: session.investigationId, status: 'concluded', ...conclusion, runs: session.runs }, 0, []);
    return { result, conclusion, session };
  };

  for (const name of (process.env.SVC_SCENARIOS ?? '').split(',').filter(Boolean)) {
    it(`scores ${name}`, async () => {
      const { result, conclusion, session } = await investigate(name);
      console.log(
        JSON.stringify(
          { name, top1: result.top1, grounded: result.grounded, status: conclusion.conclusionStatus, summary: conclusion.summary, findings: conclusion.findings.map((f) => `${f.kind}: ${f.statement} | ${f.mechanism}`), limitations: conclusion.limitations.map((l) => l.statement), runs: session.runs.map((r) => `#${r.ordinal} ${r.outcome} ${String(r.arguments.query ?? r.arguments.label ?? r.tool)} :: ${r.summary.slice(0, 160)}`) },
          null,
          1,
        ),
      );
      expect(result).toBeDefined();
    }, 120_000);
  }
});
