import type { Investigation } from './investigation.entity';
import type { ToolRun } from './tool-run.entity';

const refs = (runRefs: number[]): string => (runRefs.length ? ` [${runRefs.map((n) => `#${n}`).join(', ')}]` : '');
const line = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** The investigation as a Markdown report: the conclusion with its citations, then the runs it cites. */
export function investigationReport(i: Investigation, runs: ToolRun[]): string {
  const out: string[] = [`# ${line(i.subject)}`, '', `- Status: ${i.status}${i.stoppedBy ? ` (stopped by the ${i.stoppedBy.replace('_', ' ')} budget)` : ''}`];
  if (i.conclusionStatus) out.push(`- Conclusion: ${i.conclusionStatus.replace('_', ' ')}`);
  out.push(`- Window: ${i.windowFrom.toISOString()} to ${i.windowUntil.toISOString()}`, `- Incident: ${i.incidentId ?? 'none (a conversation turn)'}`);
  if (i.reasoner) out.push(`- Reasoner: ${i.reasoner} (${i.inputTokens} input and ${i.outputTokens} output tokens)`);
  if (i.error) out.push('', '## Error', '', line(i.error));
  if (i.summary) out.push('', '## Summary', '', i.summary.trim());
  if (i.impact) out.push('', '## Impact', '', `${line(i.impact.summary)}${refs(i.impact.runRefs)}`);
  if (i.findings.length) {
    out.push('', '## Findings', '');
    for (const f of i.findings) out.push(`- **${f.kind}**: ${line(f.statement)}${refs(f.runRefs)}${f.mechanism ? `\n  Mechanism: ${line(f.mechanism)}` : ''}`);
  }
  if (i.hypotheses.length) {
    out.push('', '## Hypotheses', '');
    for (const h of i.hypotheses) out.push(`- ${line(h.statement)} (${h.status})${refs(h.runRefs)}${h.test ? `\n  Test: ${line(h.test)}` : ''}`);
  }
  if (i.actions.length) {
    out.push('', '## Proposed actions (need a person to confirm)', '');
    for (const a of i.actions)
      out.push(`- **${line(a.title)}**: ${line(a.rationale)}${refs(a.runRefs)}${a.verification ? `\n  Verify: ${line(a.verification)}` : ''}`);
  }
  if (i.limitations.length) {
    out.push('', '## Limitations', '');
    for (const l of i.limitations) out.push(`- ${l.type.replace('_', ' ')}: ${line(l.statement)}${refs(l.runRefs)}`);
  }
  if (runs.length) {
    out.push('', '## Tool runs', '', '| # | tool | outcome | summary |', '|---:|---|---|---|');
    for (const r of runs)
      out.push(`| ${r.ordinal} | ${r.tool} | ${r.outcome}${r.truncated ? ' (truncated)' : ''} | ${line(r.summary ?? r.error ?? '').replace(/\|/g, '\\|')} |`);
  }
  return `${out.join('\n')}\n`;
}
