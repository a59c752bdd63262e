import { citation } from './postmortem-draft';
import type { Postmortem } from './postmortem.entity';

const line = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();
const cell = (text: string): string => line(text).replace(/\|/g, '\\|');

/** The postmortem as a Markdown document: its status and revision, then every section in order, citations included. */
export function postmortemReport(p: Postmortem): string {
  const d = p.document;
  const out: string[] = [
    `# ${line(d.title)}`,
    '',
    `- Status: ${p.status}${p.reviewedAt ? ` (reviewed ${p.reviewedAt.toISOString()}${p.reviewedByUserId ? ` by ${p.reviewedByUserId}` : ''})` : ''}`,
    `- Revision: ${p.revision}`,
    `- Incident: ${p.incidentId}`,
    `- Updated: ${p.updatedAt.toISOString()}`,
  ];
  if (p.correctedFields.length) out.push(`- Set by a person: ${p.correctedFields.join(', ')}`);
  const text = (heading: string, body: string) => out.push('', `## ${heading}`, '', body.trim());
  const list = (heading: string, items: string[]) => {
    out.push('', `## ${heading}`, '');
    if (items.length === 0) out.push('None recorded.');
    for (const item of items) out.push(`- ${line(item)}`);
  };
  text('Executive summary', d.executiveSummary);
  text('Impact', d.impact);
  text('Detection', d.detection);
  out.push('', '## Timeline', '', '| At | What happened |', '|---|---|');
  for (const t of d.timeline) out.push(`| ${t.at} | ${cell(t.description)}${citation(t.investigationId, t.runRefs)} |`);
  list(
    'Root causes',
    d.rootCauses.map((c) => `${c.statement}${citation(c.investigationId, c.runRefs)}`),
  );
  list(
    'Contributing factors',
    d.contributingFactors.map((c) => `${c.statement}${citation(c.investigationId, c.runRefs)}`),
  );
  text('Resolution', d.resolution);
  list('What went well', d.whatWentWell);
  list('What went wrong', d.whatWentWrong);
  list('Detection gaps', d.detectionGaps);
  list('Open questions', d.openQuestions);
  out.push('', '## Action items', '');
  if (d.actionItems.length === 0) out.push('None recorded.');
  else {
    out.push('| Action | Owner | Deadline | Verification |', '|---|---|---|---|');
    for (const a of d.actionItems)
      out.push(`| ${cell(a.title)}${citation(a.investigationId, a.runRefs)} | ${cell(a.owner)} | ${cell(a.deadline)} | ${cell(a.verification)} |`);
  }
  return `${out.join('\n')}\n`;
}
