import { z } from 'zod';
import type { Conclusion, HypothesisItem } from '../conclusion.types';
import { testedAndSupported, verificationGaps } from '../conclusion-verification';
import type { RecordedRun } from './reasoner';
import { unshownNumbers } from './stated-numbers';

/**
 * The conclusion a language model hands in, as the `conclude` tool's arguments (or a JSON answer).
 * Kept close to conclusion.types.ts; `evidenceRefs` may be left out (the cited runs become the
 * evidence) and `investigationId` inside them is filled in, so a model is not refused for omitting
 * what only the service knows.
 */
const ordinal = z.int().min(1);
const runRefs = z.array(ordinal).describe('Ordinals of the tool runs (the #N of each tool result) that back this');
const text = (max: number) => z.string().min(1).max(max);

const hypothesisStatus = z.enum(['untested', 'supported', 'refuted', 'inconclusive']);

export const hypothesisSchema = z.object({
  id: z.string().min(1).max(64).describe('A short id you choose, e.g. "h1"; findings and tool runs refer to it'),
  statement: text(8192),
  status: hypothesisStatus,
  test: z.string().max(8192).describe('The query or check that tests it'),
  runRefs,
});

const findingSchema = z.object({
  statement: text(8192),
  kind: z.enum(['cause', 'symptom', 'context', 'ruled_out']),
  mechanism: z.string().max(8192).describe('How it happens / how it leads to the incident'),
  runRefs,
  evidenceRefs: z
    .array(z.object({ investigationId: z.string().optional(), toolRunOrdinal: ordinal }))
    .optional()
    .describe('The tool runs that are evidence for it (defaults to runRefs)'),
  hypothesisId: z.string().min(1).max(64).optional().describe('The hypothesis this finding confirms, when it does'),
  verification: z
    .object({
      causeAt: z.string().describe('When the cause happened (ISO 8601)'),
      onsetAt: z.string().describe("When the incident's condition began (ISO 8601)"),
      mechanismRunRefs: runRefs.describe(
        'Runs that tested the mechanism with a query whose result would have come out otherwise (memory at the limit and an OOM-killed reason, errors only on instances running the new version)',
      ),
      unexplained: z
        .array(z.string().max(1024))
        .describe('What the data leaves unexplained about the cause itself, e.g. "why the process restarted"; empty only when the chain ends here'),
    })
    .optional()
    .describe('Required for a cause behind conclusionStatus "verified_cause"'),
});

const actionSchema = z.object({
  title: text(1024),
  rationale: z.string().max(8192),
  verification: z.string().max(8192).describe('How a person checks that the action worked'),
  runRefs,
});

const limitationSchema = z.object({
  type: z.enum(['missing_telemetry', 'tool_failure', 'budget', 'scope']),
  statement: text(8192),
  runRefs,
  messageSequences: z.array(ordinal).optional(),
});

export const conclusionSchema = z.object({
  conclusionStatus: z
    .enum(['verified_cause', 'supported_explanation', 'inconclusive', 'answer_only'])
    .describe(
      'verified_cause: a cause finding whose hypothesis a tool run supports; supported_explanation: evidence supports a cause without such a test; inconclusive otherwise; answer_only: the question asked for no cause',
    ),
  summary: text(4096),
  impact: z.object({ summary: z.string().max(8192), runRefs }),
  findings: z.array(findingSchema),
  hypotheses: z.array(hypothesisSchema),
  actions: z.array(actionSchema).describe('Proposals for people; the service never acts on systems itself'),
  limitations: z.array(limitationSchema),
});

export const hypothesesUpdateSchema = z.object({ hypotheses: z.array(hypothesisSchema) });

/** JSON Schema of a zod schema, for a tool's arguments (`$schema` removed: some providers refuse it). */
export function toolSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  return rest;
}

export type ConclusionCheck = { ok: true; conclusion: Conclusion } | { ok: false; problems: string[] };

const pathOf = (path: readonly PropertyKey[]) =>
  path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '') || '(the conclusion)';

/** zod's issues as `path: message` lines. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${pathOf(issue.path)}: ${issue.message}`);
}

/** Problems with run ordinals cited in hypotheses (of a conclusion or an `update_hypotheses` call). */
export function missingRunProblems(refs: Array<{ where: string; ordinal: number }>, runs: readonly RecordedRun[]): string[] {
  const known = new Set(runs.map((run) => run.ordinal));
  const listed = runs.length === 0 ? 'no tool run has been recorded yet' : `the recorded runs are #${runs.map((r) => r.ordinal).join(', #')}`;
  return refs.filter((ref) => !known.has(ref.ordinal)).map((ref) => `${ref.where} cites tool run #${ref.ordinal}, which does not exist (${listed})`);
}

/**
 * Validates what a model handed in as its conclusion: the shape, that every cited run exists,
 * that hypothesis references resolve, and that the status is one the evidence allows (decisions §6).
 */
export function checkConclusion(input: unknown, investigationId: string, runs: readonly RecordedRun[]): ConclusionCheck {
  const parsed = conclusionSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: describeIssues(parsed.error) };
  const c = parsed.data;
  const problems: string[] = [];

  const refs: Array<{ where: string; ordinal: number }> = [];
  const cite = (where: string, list: number[]) => list.forEach((ordinal, i) => refs.push({ where: `${where}[${i}]`, ordinal }));
  cite('impact.runRefs', c.impact.runRefs);
  c.findings.forEach((f, i) => {
    cite(`findings[${i}].runRefs`, f.runRefs);
    (f.evidenceRefs ?? []).forEach((e, j) => {
      refs.push({ where: `findings[${i}].evidenceRefs[${j}].toolRunOrdinal`, ordinal: e.toolRunOrdinal });
      if (e.investigationId !== undefined && e.investigationId !== investigationId) {
        problems.push(`findings[${i}].evidenceRefs[${j}].investigationId must be ${investigationId} (this investigation) or left out`);
      }
    });
  });
  c.hypotheses.forEach((h, i) => cite(`hypotheses[${i}].runRefs`, h.runRefs));
  c.actions.forEach((a, i) => cite(`actions[${i}].runRefs`, a.runRefs));
  c.limitations.forEach((l, i) => cite(`limitations[${i}].runRefs`, l.runRefs));
  problems.push(...missingRunProblems(refs, runs));

  const hypotheses = new Map<string, (typeof c.hypotheses)[number]>();
  c.hypotheses.forEach((h, i) => {
    if (hypotheses.has(h.id)) problems.push(`hypotheses[${i}].id "${h.id}" is used twice`);
    hypotheses.set(h.id, h);
  });
  c.findings.forEach((f, i) => {
    if (f.hypothesisId !== undefined && !hypotheses.has(f.hypothesisId)) {
      problems.push(`findings[${i}].hypothesisId "${f.hypothesisId}" names no hypothesis in "hypotheses"`);
    }
  });

  // Every measured number comes from a run the statement cites (the summary and impact: from any run the conclusion cites).
  const runsOf = (ordinals: number[]): RecordedRun[] => runs.filter((r) => ordinals.includes(r.ordinal));
  const unshown = (where: string, text: string, cited: number[]): void => {
    const numbers = unshownNumbers(text, runsOf(cited));
    if (numbers.length)
      problems.push(
        `${where} states ${numbers.join(', ')}, which no tool run it cites shows: cite the run that shows ${numbers.length === 1 ? 'it' : 'them'} (query the ratio, percentile or total you state rather than computing it), or leave ${numbers.length === 1 ? 'it' : 'them'} out`,
      );
  };
  const everyCited = [...new Set(refs.map((r) => r.ordinal))];
  unshown('summary', c.summary, everyCited);
  unshown('impact.summary', c.impact.summary, everyCited);
  c.findings.forEach((f, i) =>
    unshown(`findings[${i}].statement`, `${f.statement} ${f.mechanism}`, [...f.runRefs, ...(f.evidenceRefs ?? []).map((e) => e.toolRunOrdinal)]),
  );
  c.actions.forEach((a, i) => unshown(`actions[${i}].rationale`, a.rationale, a.runRefs));

  const succeeded = new Map(runs.filter((r) => r.outcome === 'succeeded').map((r) => [r.ordinal, r]));
  const causes = c.findings.filter((f) => f.kind === 'cause');
  if (c.conclusionStatus === 'verified_cause') {
    // The engine's rules (engine/conclusion-check.ts): the supporting run was made to test that
    // hypothesis, and the cause's verification holds.
    const tested = causes.filter((f) => testedAndSupported(f, c.hypotheses, succeeded));
    if (tested.length === 0) {
      problems.push(
        'conclusionStatus "verified_cause" needs a finding of kind "cause" whose hypothesisId names a hypothesis with status "supported" whose runRefs cite a succeeded tool run made to test it (called with that hypothesisId); otherwise use "supported_explanation" or "inconclusive"',
      );
    } else if (!tested.some((f) => verificationGaps(f, succeeded).length === 0)) {
      problems.push(
        `conclusionStatus "verified_cause" needs the cause finding's "verification": the cause dated before the onset, a succeeded run that tested the mechanism in mechanismRunRefs, and nothing left in "unexplained"; otherwise use "supported_explanation" and state what is unknown as a limitation. ${verificationGaps(
          tested[0],
          succeeded,
        )
          .map((g) => g.statement)
          .join('; ')}`,
      );
    }
  } else if (c.conclusionStatus === 'supported_explanation' && !causes.some((f) => f.runRefs.length > 0)) {
    problems.push(
      'conclusionStatus "supported_explanation" needs a finding of kind "cause" that cites at least one tool run in runRefs; otherwise use "inconclusive"',
    );
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    conclusion: {
      conclusionStatus: c.conclusionStatus,
      summary: c.summary,
      impact: { summary: c.impact.summary, runRefs: c.impact.runRefs },
      findings: c.findings.map((f) => ({
        statement: f.statement,
        kind: f.kind,
        mechanism: f.mechanism,
        runRefs: f.runRefs,
        evidenceRefs: (f.evidenceRefs ?? f.runRefs.map((toolRunOrdinal) => ({ toolRunOrdinal }))).map((e) => ({
          investigationId,
          toolRunOrdinal: e.toolRunOrdinal,
        })),
        ...(f.hypothesisId !== undefined ? { hypothesisId: f.hypothesisId } : {}),
        ...(f.verification !== undefined ? { verification: f.verification } : {}),
      })),
      hypotheses: c.hypotheses.map((h): HypothesisItem => ({ id: h.id, statement: h.statement, status: h.status, test: h.test, runRefs: h.runRefs })),
      actions: c.actions.map((a) => ({ title: a.title, rationale: a.rationale, verification: a.verification, runRefs: a.runRefs })),
      limitations: c.limitations.map((l) => ({ type: l.type, statement: l.statement, runRefs: l.runRefs, messageSequences: l.messageSequences ?? [] })),
    },
  };
}

/**
 * A conclusion answered as text instead of through `conclude`: the JSON object in it (bare or in a
 * ```json fence). `undefined` when the text holds no JSON object; `{ invalidJson }` when it plainly
 * tried to (it names conclusionStatus) but the JSON does not parse.
 */
export function conclusionInText(text: string): { value: unknown } | { invalidJson: string } | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidate = (fenced?.[1] ?? text).trim();
  const start = candidate.indexOf('{');
  const end = candidate.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(candidate.slice(start, end + 1));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { value } : undefined;
  } catch (error) {
    return candidate.includes('conclusionStatus') ? { invalidJson: (error as Error).message } : undefined;
  }
}
