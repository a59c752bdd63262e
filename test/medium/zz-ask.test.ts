import { it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, stagePrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { DEFAULT_BUDGETS, directSession } from '../../test/support/direct-session';
it('asks', async () => {
  const scenario = SCENARIOS.find((s) => s.name === process.env.SCEN)!;
  const staged = await stagePrometheus(scenario);
  const [page] = await deriveAlerts(staged.prometheus.url, scenario.rule, staged.start, staged.end);
  for (const message of process.env.QS!.split('|')) {
    const session = directSession(staged.prometheus.url, page, [], DEFAULT_BUDGETS, { message, earlier: [], answers: [] });
    const c = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
    console.log('Q:', message, '\n', c.question ?? c.summary, '\n', session.runs.map((r) => `#${r.ordinal} ${r.tool} ${JSON.stringify(r.arguments).slice(0, 300)} -> ${r.summary.slice(0, 200)}`).join('\n '));
  }
  await staged.stop();
}, 120000);
