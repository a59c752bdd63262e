import { NARRATIVE_FIELDS, NarrativeField, LONG_TEXT_MAX } from '../postmortem.types';
import { citation, clip } from '../postmortem-draft';

/** The tool the model answers through: one narrative per field, each with the runs it rests on. */
export const WRITE_NARRATIVE_TOOL = 'write_postmortem_narrative';

export const NARRATIVE_SYSTEM_PROMPT = [
  'You write the narrative parts of an incident postmortem: the executive summary, the impact and the detection.',
  'Use only the facts you are given. Never invent owners, deadlines, customer impact, fixes or numbers the facts do not hold;',
  'where a fact is missing, write "Needs human input." instead.',
  'Cite the tool runs each part rests on by investigation id and run ordinal, and cite only runs listed in the facts.',
  `Answer by calling ${WRITE_NARRATIVE_TOOL} once.`,
].join(' ');

const part = {
  type: 'object',
  additionalProperties: false,
  required: ['text', 'citations'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 16384 },
    citations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['investigationId', 'runRefs'],
        properties: { investigationId: { type: 'string' }, runRefs: { type: 'array', items: { type: 'integer' } } },
      },
    },
  },
};

export const NARRATIVE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [...NARRATIVE_FIELDS],
  properties: Object.fromEntries(NARRATIVE_FIELDS.map((f) => [f, part])),
};

export type NarrativeCheck = { ok: true; narrative: Record<NarrativeField, string> } | { ok: false; problems: string[] };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Checks the model's answer like a conclusion: every part present, every citation naming a run
 * that exists in an investigation of the incident, no other investigation named in the text. The
 * stored text is the model's with its citations written out.
 */
export function checkNarrative(input: unknown, runOrdinals: Map<string, number[]>): NarrativeCheck {
  const problems: string[] = [];
  const narrative = {} as Record<NarrativeField, string>;
  const value = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  for (const field of NARRATIVE_FIELDS) {
    const p = value[field] as { text?: unknown; citations?: unknown } | undefined;
    if (!p || typeof p.text !== 'string' || p.text.trim() === '') {
      problems.push(`${field}: no text`);
      continue;
    }
    for (const id of p.text.match(UUID) ?? [])
      if (!runOrdinals.has(id.toLowerCase())) problems.push(`${field}: names ${id}, which is not an investigation of this incident`);
    const citations = Array.isArray(p.citations) ? (p.citations as Array<{ investigationId?: unknown; runRefs?: unknown }>) : [];
    const suffix: string[] = [];
    for (const c of citations) {
      const id = typeof c.investigationId === 'string' ? c.investigationId.toLowerCase() : '';
      const known = runOrdinals.get(id);
      if (!known) {
        problems.push(`${field}: cites investigation ${String(c.investigationId)}, which is not an investigation of this incident`);
        continue;
      }
      const refs = Array.isArray(c.runRefs) ? c.runRefs : [];
      const missing = refs.filter((n) => !Number.isInteger(n) || !known.includes(n as number));
      if (missing.length) problems.push(`${field}: cites run(s) ${missing.join(', ')} of investigation ${id}, which do not exist`);
      suffix.push(
        citation(
          id,
          [...new Set(refs as number[])].sort((a, b) => a - b),
        ),
      );
    }
    narrative[field] = clip(`${p.text.trim()}${suffix.join('')}`, LONG_TEXT_MAX);
  }
  return problems.length ? { ok: false, problems } : { ok: true, narrative };
}
