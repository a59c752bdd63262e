import { Timestamp } from '@svc/platform';
import { detectionScopeOf } from './explainers/labels';
import { explainCauses } from './explainers/registry';
import { lostTimeUnexplained } from './graph/lost-time';
import { canPlace, canRankSuspects, placeEntity, rankSuspects } from './localize/localize';
import { moveOf } from './localize/hypotheses';
import { earliest, minutesBetween } from './series-reading';
import type { InvestigationSession, RecordedRun, SourceBrief } from './reasoner';

/** The reasoner's tool that runs the cause detectors for the model. */
export const CAUSES_NEAR_ONSET_TOOL = 'causes_near_onset';

const RANGE_TOOL = 'prometheus.query_range';

/** The Prometheus sources the detectors can read (the session must offer range queries). */
export function detectorSources(session: InvestigationSession): SourceBrief[] {
  return session.tools.some((t) => t.name === RANGE_TOOL) ? session.sources.filter((s) => s.type === 'prometheus') : [];
}

export const causesNearOnsetDescription = [
  "Runs the cause detectors over the standard exporters (kube-state-metrics, node-exporter, cAdvisor, blackbox, database, queue and client-side HTTP/gRPC metrics) on the alert's entity and its relations (pod → node, caller → peer), and returns the candidate causes they found and dated near the onset.",
  'Each query is recorded as a tool run of its own; each candidate names the runs that show it, the runs that tested its mechanism, the runs of its causal chain, and what the data leaves unexplained about it. Cite those runs.',
  'Then, budget permitting, it places the entity in the call graph that caller/callee series show (service graphs derived from traces, service meshes): `lostTime` names the callee, among everything the entity calls directly or not, whose callers wait far longer for its calls than it takes to handle them from the onset on (the time is lost between them: its network, a proxy, a queue in front of it), with the services that wait on it as `consequences`; its mechanism is untested, so it is at most a supported_explanation.',
  "Then, budget permitting, it reads what changed near the onset on every candidate (the entity, what it calls directly or not, what shares its nodes, the nodes; without a call graph, the other entities its exporter lists), whatever the exporters call their metrics (a pod's series read by its workload, containers' CPU and memory against their limits), dates each change against the series' own history, weighs it by how closely it began at the onset, and walks the calls downstream: `rankedChanges` are the suspects, the changes that nothing the changed entity depends on explains, the most likely first, each with its relation, its call path from the entity, the entities whose changes it explains, and the run that shows it. No detector recognises a ranked change, so its mechanism is untested: it is at most a supported_explanation.",
  'A candidate is a hypothesis, not a conclusion: to conclude it, test it with a run made for its hypothesisId (for example its mechanism query again).',
].join('\n');
/** Runs kept for the model's own reads after the detectors: the ranking runs only when they remain. */
const MODEL_RUNS_KEPT = 4;
/** Ranked changes returned to the model, and how much of each ranking read's query and summary it is shown. */
const RANKED_RETURNED = 5;
const RANKING_QUERY_CHARS = 400;
const RANKING_SUMMARY_CHARS = 300;
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function causesNearOnsetSchema(integrationIds: string[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      integrationId: { type: 'string', enum: integrationIds, description: 'The prometheus integration to read: the integrationId of a ranked source' },
      labels: {
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 1024 },
        maxProperties: 64,
        description:
          "The entity: the alert's labels (namespace, service, job, pod, instance, node, deployment, queue, ...). Default: the labels of the incident's earliest alert",
      },
      onset: {
        type: 'string',
        format: 'date-time',
        description: "When the alert's condition began (RFC 3339), best dated by querying its expression. Default: the earliest alert's start",
      },
      latency: { type: 'boolean', description: "Whether the alert's condition is about latency (a duration histogram) rather than errors. Default: false" },
      purpose: {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        description: 'Why you run this, in one sentence (shown to the people following the investigation)',
      },
    },
    required: integrationIds.length > 1 ? ['integrationId', 'purpose'] : ['purpose'],
    additionalProperties: false,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const runLine = (run: RecordedRun) => ({
  run: run.ordinal,
  purpose: run.purpose,
  query: typeof run.arguments.query === 'string' ? run.arguments.query : undefined,
  outcome: run.outcome,
  summary: run.summary,
});

type RunLine = ReturnType<typeof runLine>;

/** A run's line with its query and summary cut to what the ranking's reads are shown of theirs. */
const shortened = (line: RunLine): RunLine => ({
  ...line,
  query: line.query === undefined ? undefined : cut(line.query, RANKING_QUERY_CHARS),
  summary: cut(line.summary, RANKING_SUMMARY_CHARS),
});

/**
 * Runs the cause detectors for a model's call and describes what they found, as the text the model
 * reads: every query they made is a recorded run (whose ordinal comes from the session), and each
 * candidate cites them. A call the detectors cannot serve is answered with why, and runs nothing.
 */
export async function runCausesNearOnset(session: InvestigationSession, input: unknown, maxChars = Infinity): Promise<string> {
  const args = isObject(input) ? input : {};
  const sources = detectorSources(session);
  const source =
    typeof args.integrationId === 'string' ? sources.find((s) => s.integrationId === args.integrationId) : sources.length === 1 ? sources[0] : undefined;
  if (!source) return `Not run: set integrationId to one of the prometheus sources (${sources.map((s) => s.integrationId).join(', ') || 'there is none'}).`;
  let labels: Record<string, string>;
  if (args.labels === undefined) {
    const first = [...session.alerts].sort((a, b) => (a.startsAt.isAfter(b.startsAt) ? 1 : -1))[0];
    labels = first?.labels ?? session.incident?.labels ?? {};
  } else if (isObject(args.labels) && Object.values(args.labels).every((v) => typeof v === 'string')) {
    labels = args.labels as Record<string, string>;
  } else {
    return 'Not run: labels must be an object of label names to string values.';
  }
  if (Object.keys(labels).length === 0) return "Not run: give the entity's labels (the alert's namespace, service, job, pod, instance, ...).";
  const onset =
    args.onset === undefined ? earliest(session.alerts.map((a) => a.startsAt)) : typeof args.onset === 'string' ? Timestamp.parse(args.onset) : null;
  if (!onset) return args.onset === undefined ? 'Not run: there is no alert to date the onset by; give onset.' : 'Not run: onset must be an RFC 3339 time.';
  if (onset.isBefore(session.window.from) || onset.isAfter(session.window.until))
    return `Not run: onset must lie within the investigation window (${session.window.from.toISOString()} to ${session.window.until.toISOString()}).`;

  const before = session.runs.length;
  const detectors = await explainCauses(session, source, detectionScopeOf([labels], onset, args.latency === true));
  const found = detectors.causes;
  const runs = session.runs.slice(before);
  const candidates = found
    .filter((d, i) => found.findIndex((o) => o.id === d.id) === i)
    .map((d) => ({
      hypothesisId: d.id,
      statement: d.statement,
      at: d.at.toISOString(),
      minutesBeforeOnset: minutesBetween(d.at, onset),
      shownBy: d.run.ordinal,
      proves: d.mechanism,
      mechanismRuns: d.mechanismRuns,
      chainRuns: d.chainRuns,
      unexplained: d.unexplained,
      // Stated and ruled out by what the detector read (a noisy neighbour on another node, ...): why, and the runs that show it.
      ...(d.refuted ? { ruledOut: d.refuted.because, ruledOutBy: d.refuted.runs } : {}),
      // What the conclusion's `verification` may claim once the hypothesis is tested: the data's, not the model's.
      verifiable: !d.refuted && !d.at.isAfter(onset) && d.mechanismRuns.length > 0 && d.unexplained.length === 0,
      action: d.action,
    }));
  // A detector's verifiable candidate explains the onset; otherwise the entity is placed among
  // what it calls and where it runs, the call graph is walked for where the calls lose time, and
  // what changed on every candidate is ranked, the graph walked downstream to the suspects.
  const canLocate = !candidates.some((c) => c.verifiable) && canPlace(session, MODEL_RUNS_KEPT);
  const located = canLocate ? await placeEntity(session, source, [labels], onset, null) : null;
  const lost = located?.lost;
  const lostTime = lost && {
    hypothesisId: 'h-lost-time',
    callee: lost.callee,
    statement: `Calls to ${lost.callee} lose ${lost.lost.toFixed(3)} s each between its callers and it from ${lost.since.toISOString()}`,
    at: lost.since.toISOString(),
    minutesBeforeOnset: minutesBetween(lost.since, onset),
    losingCallers: lost.losing.map((l) => ({ caller: l.caller, waitedSeconds: +l.waited.toFixed(4), handledSeconds: +l.handled.toFixed(4) })),
    callersRead: lost.callers,
    consequences: lost.dependents,
    shownBy: located.runs[located.runs.length - 1].ordinal,
    discoveredBy: located.runs.slice(0, -1).map((r) => r.ordinal),
    unexplained: [lostTimeUnexplained(lost)],
    verifiable: false,
  };
  const canRank = !!located && !candidates.some((c) => c.verifiable) && canRankSuspects(session, MODEL_RUNS_KEPT);
  const ranked = canRank ? await rankSuspects(session, source, located, [labels], onset, MODEL_RUNS_KEPT, args.latency === true) : null;
  const rankedChanges = (ranked?.suspects ?? []).slice(0, RANKED_RETURNED).map((s, i) => {
    const c = s.lead.change;
    const at = Timestamp.fromEpochMicros(c.change.at);
    const move = moveOf(s.lead);
    return {
      hypothesisId: `h-change${i ? `-${i + 1}` : ''}`,
      entity: s.entity,
      relation: s.relation,
      ...(s.path.length > 1 ? { callPath: s.path } : {}),
      ...(s.explains.length ? { explains: s.explains } : {}),
      statement: `A ${move}`,
      at: at.toISOString(),
      minutesBeforeOnset: minutesBetween(at, onset),
      score: Math.round(c.change.score),
      shownBy: c.run.ordinal,
      discoveredBy: [...located!.runs, ...ranked!.discoveryRuns].map((r) => r.ordinal),
      unexplained: [`how the ${move.split(' from ')[0]} produced the alert's condition (no detector recognises it, so its mechanism is untested)`],
      verifiable: false,
    };
  });
  // The ranking's reads are listed when a returned change cites them, their long queries cut.
  const cited = new Set([...rankedChanges, ...(lostTime ? [lostTime] : [])].flatMap((c) => [c.shownBy, ...c.discoveredBy]));
  const rankingRuns = [...(located?.runs ?? []), ...(ranked ? [...ranked.discoveryRuns, ...ranked.rankingRuns] : [])]
    .filter((r) => cited.has(r.ordinal))
    .map((r) => shortened(runLine(r)));
  const header = [
    `Cause detectors near the onset ${onset.toISOString()} on ${Object.entries(labels)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(', ')}: ${candidates.length} candidate cause${candidates.length === 1 ? '' : 's'} from ${runs.length} tool run${runs.length === 1 ? '' : 's'}${
      runs.length ? ` (#${runs.map((r) => r.ordinal).join(', #')})` : ''
    }; ${rankedChanges.length} suspect${rankedChanges.length === 1 ? '' : 's'} among what the entity depends on${
      ranked
        ? ` (#${[...ranked.discoveryRuns, ...ranked.rankingRuns].map((r) => r.ordinal).join(', #')})`
        : canRank
          ? ' (not ranked: the labels name no service or workload)'
          : ' (not ranked: too few tool runs left)'
    }${lostTime ? `; the call graph shows calls to ${lostTime.callee} losing time between its callers and it (lostTime)` : ''}.`,
    'Cite the runs by their numbers. A candidate with "ruledOut" was stated and refuted by the runs in "ruledOutBy": report it as ruled out, not as a cause. "verifiable" is true only when the cause precedes the onset, a run tested its mechanism and nothing of its chain is unexplained; otherwise it is at most a supported_explanation, with "unexplained" as its limitation.',
  ];
  return fitted(
    header.join('\n'),
    { candidates, ...(lostTime ? { lostTime } : {}), rankedChanges, limitations: detectors.limitations },
    [...runs.map(runLine), ...rankingRuns],
    maxChars,
  );
}

/**
 * The answer in at most `maxChars`, its JSON whole: when too long, every run's query and summary
 * is cut as the ranking's are, then runs are left out from the end of the list (their numbers in
 * `runsLeftOut`, still citable). The candidates always stay.
 */
function fitted(header: string, body: Record<string, unknown>, runs: RunLine[], maxChars: number): string {
  const render = (list: RunLine[], leftOut: number[]): string =>
    `${header}\n${JSON.stringify({ ...body, runs: list, ...(leftOut.length ? { runsLeftOut: leftOut } : {}) })}`;
  const whole = render(runs, []);
  if (whole.length <= maxChars) return whole;
  const list = runs.map(shortened);
  const leftOut: number[] = [];
  let text = render(list, leftOut);
  while (text.length > maxChars && list.length) {
    leftOut.unshift(list.pop()!.run);
    text = render(list, leftOut);
  }
  return text;
}
