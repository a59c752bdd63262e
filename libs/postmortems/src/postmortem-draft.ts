import type { AlertPhaseRecord, IncidentHistory } from '@svc/incidents';
import type { InvestigationRecord } from '@svc/investigations';
import { Timestamp } from '@svc/platform';
import {
  ActionItemEntry,
  CitedStatement,
  DOCUMENT_FIELDS,
  DocumentField,
  ENTRY_MAX,
  LIST_MAX,
  LONG_TEXT_MAX,
  NEEDS_HUMAN_INPUT,
  PostmortemDocument,
  TimelineEntry,
  TITLE_MAX,
} from './postmortem.types';

/** The facts a draft is written from, all read from the incidents and investigations libraries. */
export interface PostmortemFacts {
  history: IncidentHistory;
  investigations: InvestigationRecord[];
}

/** Human notes given with the first draft. */
export type PostmortemNotes = Partial<Pick<PostmortemDocument, 'impact' | 'resolution' | 'whatWentWell' | 'whatWentWrong' | 'detectionGaps'>>;

const CONCLUSION_RANK: Record<string, number> = { verified_cause: 0, supported_explanation: 1, inconclusive: 2, answer_only: 3 };
/** Order of simultaneous timeline entries: an incident opens before its alert fires; alerts resolve before the incident does. */
const RANK = { change: -1, opened: 0, firing: 1, merged: 2, investigationOpened: 3, investigationEnded: 4, resolved: 5, incidentResolved: 6, more: 7 };
const ISO_TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The citation of runs of an investigation, as it reads in text: ` [investigation <id>, runs #1, #2]`. */
export function citation(investigationId: string | null, runRefs: number[]): string {
  if (!investigationId) return '';
  return ` [investigation ${investigationId}${runRefs.length ? `, run${runRefs.length > 1 ? 's' : ''} ${runRefs.map((n) => `#${n}`).join(', ')}` : ''}]`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function alertName(e: AlertPhaseRecord): string {
  return e.labels.alertname ?? `alert ${e.fingerprint}`;
}

function labelText(labels: Record<string, string>): string {
  const shown = Object.entries(labels)
    .filter(([k]) => k !== 'alertname')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ');
  return shown ? ` {${clip(shown, 512)}}` : '';
}

function duration(from: Timestamp, until: Timestamp): string {
  let seconds = Math.max(0, Math.round(Number(until.epochMicros - from.epochMicros) / 1_000_000));
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return [hours ? `${hours} h` : '', minutes ? `${minutes} min` : '', `${seconds} s`].filter(Boolean).join(' ');
}

/** Investigations that reached a conclusion, best conclusion first, then the earlier first. */
function concluded(investigations: InvestigationRecord[]): InvestigationRecord[] {
  return investigations
    .filter((i) => (i.status === 'concluded' || i.status === 'partial') && i.conclusionStatus !== null)
    .sort((a, b) => (CONCLUSION_RANK[a.conclusionStatus!] ?? 9) - (CONCLUSION_RANK[b.conclusionStatus!] ?? 9));
}

/**
 * When each alert fired: its firing phases, and for an alert the service only saw resolved (it
 * arrived resolved), the `startsAt` its resolution carries. Earliest first.
 */
function firings(events: AlertPhaseRecord[]): Array<{ at: Timestamp; event: AlertPhaseRecord }> {
  const seen = new Set(events.filter((e) => e.status === 'firing').map((e) => `${e.fingerprint} ${e.startsAt.epochMicros}`));
  const out = events.filter((e) => e.status === 'firing').map((event) => ({ at: event.phaseAt, event }));
  for (const event of events.filter((e) => e.status === 'resolved')) {
    const key = `${event.fingerprint} ${event.startsAt.epochMicros}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ at: event.startsAt, event });
  }
  return out.sort((a, b) => (a.at.epochMicros < b.at.epochMicros ? -1 : a.at.epochMicros > b.at.epochMicros ? 1 : 0));
}

function timeline(facts: PostmortemFacts): TimelineEntry[] {
  const { incident, alertEvents, alertEventTotal, merged } = facts.history;
  const entries: Array<TimelineEntry & { rank: number; micros: bigint }> = [];
  const add = (at: Timestamp, rank: number, entry: Omit<TimelineEntry, 'at'>) =>
    entries.push({ ...entry, description: clip(entry.description, ENTRY_MAX), at: at.toISOString(), rank, micros: at.epochMicros });
  add(incident.openedAt, RANK.opened, {
    description: `Incident "${oneLine(incident.title)}" opened`,
    runRefs: [],
    investigationId: null,
    source: { kind: 'incident', id: incident.id },
  });
  for (const { at, event: e } of firings(alertEvents)) {
    const summary = e.annotations.summary ? `: ${oneLine(e.annotations.summary)}` : '';
    add(at, RANK.firing, {
      description: `Alert ${alertName(e)}${labelText(e.labels)} fired${summary}`,
      runRefs: [],
      investigationId: null,
      source: { kind: 'alert_event', id: e.id },
    });
  }
  for (const e of alertEvents.filter((x) => x.status === 'resolved')) {
    add(e.phaseAt, RANK.resolved, {
      description: `Alert ${alertName(e)}${labelText(e.labels)} resolved`,
      runRefs: [],
      investigationId: null,
      source: { kind: 'alert_event', id: e.id },
    });
  }
  for (const m of merged) {
    add(m.updatedAt, RANK.merged, {
      description: `Incident "${oneLine(m.title)}" (${m.id}) was merged into this incident`,
      runRefs: [],
      investigationId: null,
      source: { kind: 'incident', id: m.id },
    });
  }
  // The reported changes the investigations cite (a deploy, a configuration change before the
  // onset), each once, citing the run that read it.
  const changes = new Set<string>();
  for (const i of facts.investigations)
    for (const c of i.citedChanges.filter((c) => !changes.has(c.id))) {
      changes.add(c.id);
      add(Timestamp.parse(c.occurredAt)!, RANK.change, {
        description: `Change (${c.kind.replace('_', ' ')}${c.service ? ` of ${c.service}` : ''}, reported through ${c.source}): ${oneLine(c.summary)}${c.author ? `, by ${c.author}` : ''}`,
        runRefs: [c.runOrdinal],
        investigationId: i.id,
        source: { kind: 'change', id: c.id },
      });
    }
  for (const i of facts.investigations) {
    add(i.createdAt, RANK.investigationOpened, {
      description: `Investigation opened: ${oneLine(i.subject)}`,
      runRefs: [],
      investigationId: i.id,
      source: { kind: 'investigation', id: i.id },
    });
    if (i.concludedAt && i.conclusionStatus) {
      const causes = i.findings.filter((f) => f.kind === 'cause');
      const refs = [...new Set(causes.flatMap((f) => f.runRefs))].sort((a, b) => a - b);
      add(i.concludedAt, RANK.investigationEnded, {
        description: `Investigation concluded (${i.conclusionStatus.replace('_', ' ')})${i.summary ? `: ${oneLine(i.summary)}` : ''}`,
        runRefs: refs,
        investigationId: i.id,
        source: { kind: 'investigation', id: i.id },
      });
    } else if (i.concludedAt) {
      add(i.concludedAt, RANK.investigationEnded, {
        description: `Investigation ended (${i.status}) without a conclusion`,
        runRefs: [],
        investigationId: i.id,
        source: { kind: 'investigation', id: i.id },
      });
    }
  }
  if (incident.resolvedAt) {
    add(incident.resolvedAt, RANK.incidentResolved, {
      description: 'Incident resolved: every alert in it resolved',
      runRefs: [],
      investigationId: null,
      source: { kind: 'incident', id: incident.id },
    });
  }
  entries.sort((a, b) => (a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : a.rank - b.rank));
  const left = alertEventTotal - alertEvents.length;
  const kept = left > 0 || entries.length > LIST_MAX ? entries.slice(0, LIST_MAX - 1) : entries;
  if (left > 0 || entries.length > kept.length) {
    const last = kept.at(-1)!;
    kept.push({
      at: last.at,
      description: `${left + entries.length - kept.length} more events are not listed here; the incident's alert events hold every one`,
      runRefs: [],
      investigationId: null,
      source: { kind: 'incident', id: incident.id },
      rank: RANK.more,
      micros: last.micros,
    });
  }
  return kept.map(({ at, description, runRefs, investigationId, source }) => ({ at, description, runRefs, investigationId, source }));
}

function rootCauses(ranked: InvestigationRecord[]): CitedStatement[] {
  const seen = new Set<string>();
  const out: CitedStatement[] = [];
  for (const i of ranked) {
    for (const f of i.findings.filter((x) => x.kind === 'cause')) {
      const statement = clip(`${oneLine(f.statement)}${f.mechanism ? ` Mechanism: ${oneLine(f.mechanism)}` : ''}`, ENTRY_MAX);
      if (seen.has(statement)) continue;
      seen.add(statement);
      out.push({ statement, runRefs: [...f.runRefs], investigationId: i.id });
    }
  }
  return out.length ? out.slice(0, LIST_MAX) : [{ statement: NEEDS_HUMAN_INPUT, runRefs: [], investigationId: null }];
}

function contributingFactors(ranked: InvestigationRecord[]): CitedStatement[] {
  const out: CitedStatement[] = [];
  const seen = new Set<string>();
  for (const i of ranked) {
    const causeHypotheses = new Set(i.findings.filter((f) => f.kind === 'cause' && f.hypothesisId).map((f) => f.hypothesisId));
    const causeStatements = new Set(i.findings.filter((f) => f.kind === 'cause').map((f) => oneLine(f.statement)));
    for (const h of i.hypotheses.filter((x) => x.status === 'supported' && !causeHypotheses.has(x.id) && !causeStatements.has(oneLine(x.statement)))) {
      const statement = clip(oneLine(h.statement), ENTRY_MAX);
      if (seen.has(statement)) continue;
      seen.add(statement);
      out.push({ statement, runRefs: [...h.runRefs], investigationId: i.id });
    }
  }
  return out.slice(0, LIST_MAX);
}

/**
 * The onset the best investigation dated: the earliest `onsetAt` of its cause findings'
 * verification (where a reasoner states when the condition began), else the earliest timestamp
 * its symptom findings state (findings stored without a verification); with the finding's runs.
 */
function onsetOf(ranked: InvestigationRecord[]): { at: Timestamp; investigationId: string; runRefs: number[] } | null {
  const earliest = (candidates: Array<{ at: Timestamp | null; runRefs: number[] }>) =>
    candidates.reduce<{ at: Timestamp; runRefs: number[] } | null>(
      (best, c) => (c.at && (!best || c.at.isBefore(best.at)) ? { at: c.at, runRefs: c.runRefs } : best),
      null,
    );
  for (const i of ranked) {
    const dated = earliest(
      i.findings.filter((f) => f.kind === 'cause' && f.verification).map((f) => ({ at: Timestamp.parse(f.verification!.onsetAt), runRefs: f.runRefs })),
    );
    const stated = earliest(
      i.findings
        .filter((f) => f.kind === 'symptom')
        .flatMap((f) => [...f.statement.matchAll(ISO_TIMESTAMP)].map((m) => ({ at: Timestamp.parse(m[0]), runRefs: f.runRefs }))),
    );
    const best = dated ?? stated;
    if (best) return { ...best, runRefs: [...best.runRefs], investigationId: i.id };
  }
  return null;
}

function detection(facts: PostmortemFacts, ranked: InvestigationRecord[]): string {
  const earliest = firings(facts.history.alertEvents)[0];
  if (!earliest) return NEEDS_HUMAN_INPUT;
  const first = earliest.event;
  const lines = [
    `The first alert was ${alertName(first)}${labelText(first.labels)}, firing from ${earliest.at.toISOString()} (alert event ${first.id}); the service received it ${first.status === 'firing' ? '' : 'already resolved '}at ${first.receivedAt.toISOString()}.`,
    `Rule: ${first.labels.alertname ? `the alerting rule ${first.labels.alertname}` : 'not named by the alert'}${first.generatorUrl ? ` (${first.generatorUrl})` : ''}.`,
  ];
  const onset = onsetOf(ranked);
  if (onset) {
    const late = onset.at.isBefore(earliest.at);
    lines.push(
      `The condition began at ${onset.at.toISOString()}${citation(onset.investigationId, onset.runRefs)}; the alert fired ${late ? `${duration(onset.at, earliest.at)} after the onset` : 'at the onset'}.`,
    );
  } else {
    lines.push(`No investigation dated the onset, so the delay between the onset and the alert: ${NEEDS_HUMAN_INPUT}`);
  }
  return clip(lines.join('\n'), LONG_TEXT_MAX);
}

function impact(facts: PostmortemFacts, ranked: InvestigationRecord[]): string {
  const { incident } = facts.history;
  const lines = [
    `The incident was open from ${incident.openedAt.toISOString()}${incident.resolvedAt ? ` to ${incident.resolvedAt.toISOString()} (${duration(incident.openedAt, incident.resolvedAt)})` : ''}, with ${incident.alertCount} alert(s).`,
  ];
  for (const i of ranked) {
    if (i.impact?.summary) lines.push(`${oneLine(i.impact.summary)}${citation(i.id, i.impact.runRefs)}`);
  }
  lines.push(`Customer impact beyond these data: ${NEEDS_HUMAN_INPUT}`);
  return clip(lines.join('\n'), LONG_TEXT_MAX);
}

function openQuestions(ranked: InvestigationRecord[]): string[] {
  const out: string[] = [];
  for (const i of ranked) {
    for (const l of i.limitations) out.push(clip(`${l.type.replace('_', ' ')}: ${oneLine(l.statement)}${citation(i.id, l.runRefs)}`, ENTRY_MAX));
    for (const h of i.hypotheses.filter((x) => x.status === 'untested' || x.status === 'inconclusive'))
      out.push(clip(`${h.status === 'untested' ? 'Untested' : 'Inconclusive'}: ${oneLine(h.statement)}${citation(i.id, h.runRefs)}`, ENTRY_MAX));
  }
  return [...new Set(out)].slice(0, LIST_MAX);
}

function actionItems(ranked: InvestigationRecord[]): ActionItemEntry[] {
  const out: ActionItemEntry[] = [];
  const seen = new Set<string>();
  for (const i of ranked) {
    for (const a of i.actions) {
      const title = clip(oneLine(a.rationale ? `${a.title}: ${a.rationale}` : a.title), ENTRY_MAX);
      if (seen.has(title)) continue;
      seen.add(title);
      out.push({
        title,
        owner: NEEDS_HUMAN_INPUT,
        deadline: NEEDS_HUMAN_INPUT,
        verification: a.verification ? clip(oneLine(a.verification), ENTRY_MAX) : NEEDS_HUMAN_INPUT,
        runRefs: [...a.runRefs],
        investigationId: i.id,
      });
    }
  }
  return out.slice(0, LIST_MAX);
}

function detectionGaps(ranked: InvestigationRecord[]): string[] {
  const gaps = ranked.flatMap((i) =>
    i.limitations.filter((l) => l.type === 'missing_telemetry').map((l) => clip(`${oneLine(l.statement)}${citation(i.id, l.runRefs)}`, ENTRY_MAX)),
  );
  return gaps.length ? [...new Set(gaps)].slice(0, LIST_MAX) : [NEEDS_HUMAN_INPUT];
}

function executiveSummary(facts: PostmortemFacts, causes: CitedStatement[], actions: ActionItemEntry[]): string {
  const { incident, alertEvents } = facts.history;
  const earliest = firings(alertEvents)[0];
  const parts = [
    `"${oneLine(incident.title)}" was open from ${incident.openedAt.toISOString()}${incident.resolvedAt ? ` to ${incident.resolvedAt.toISOString()} (${duration(incident.openedAt, incident.resolvedAt)})` : ''} with ${incident.alertCount} alert(s)${earliest ? `; the first, ${alertName(earliest.event)}, fired at ${earliest.at.toISOString()}` : ''}.`,
  ];
  const cause = causes[0];
  if (cause && cause.investigationId) parts.push(`Root cause: ${cause.statement}${citation(cause.investigationId, cause.runRefs)}`);
  else parts.push(`No concluded investigation found the cause; root cause: ${NEEDS_HUMAN_INPUT}`);
  if (facts.investigations.length) parts.push(`${facts.investigations.length} investigation(s) examined it; ${actions.length} action item(s) were proposed.`);
  return clip(parts.join(' '), LONG_TEXT_MAX);
}

/** The facts-only document: every statement read from a record, and cited. */
export function draftFromFacts(facts: PostmortemFacts): PostmortemDocument {
  const ranked = concluded(facts.investigations);
  const causes = rootCauses(ranked);
  const actions = actionItems(ranked);
  return {
    title: clip(`Postmortem: ${oneLine(facts.history.incident.title)}`, TITLE_MAX),
    executiveSummary: executiveSummary(facts, causes, actions),
    impact: impact(facts, ranked),
    detection: detection(facts, ranked),
    timeline: timeline(facts),
    rootCauses: causes,
    contributingFactors: contributingFactors(ranked),
    resolution: NEEDS_HUMAN_INPUT,
    whatWentWell: [NEEDS_HUMAN_INPUT],
    whatWentWrong: [NEEDS_HUMAN_INPUT],
    detectionGaps: detectionGaps(ranked),
    openQuestions: openQuestions(ranked),
    actionItems: actions,
  };
}

/** `generated` with the fields a person set taken from `kept`. */
export function keepCorrections(generated: PostmortemDocument, kept: Partial<PostmortemDocument>, corrected: readonly DocumentField[]): PostmortemDocument {
  const out = { ...generated } as Record<DocumentField, unknown>;
  for (const field of corrected) if (kept[field] !== undefined) out[field] = kept[field];
  return out as unknown as PostmortemDocument;
}

/** Field names in document order, without repeats. */
export function inDocumentOrder(fields: Iterable<DocumentField>): DocumentField[] {
  const set = new Set(fields);
  return DOCUMENT_FIELDS.filter((f) => set.has(f));
}
