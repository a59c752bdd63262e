import { describe, expect, it } from 'vitest';
import type { AlertPhaseRecord, IncidentRecord } from '@svc/incidents';
import type { FindingItem, InvestigationRecord } from '@svc/investigations';
import { Timestamp } from '@svc/platform';
import { draftFromFacts } from './postmortem-draft';
import { LIST_MAX, NEEDS_HUMAN_INPUT } from './postmortem.types';

const at = (text: string) => Timestamp.parse(text)!;
const T0 = '2026-11-20T10:00:00.000000Z';
const T1 = '2026-11-20T10:30:00.000000Z';

const incident: IncidentRecord = {
  id: '0190a000-0000-7000-8000-000000000001',
  status: 'resolved',
  title: 'Checkout fails',
  labels: {},
  openedAt: at(T0),
  resolvedAt: at(T1),
  mergedInto: null,
  alertCount: 1,
  createdAt: at(T0),
  updatedAt: at(T1),
};

function phase(n: number, status: 'firing' | 'resolved', when: string): AlertPhaseRecord {
  return {
    id: `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`,
    incidentId: incident.id,
    fingerprint: `f${n}`,
    status,
    labels: { alertname: `A${n}` },
    annotations: {},
    startsAt: at(T0),
    endsAt: status === 'resolved' ? at(when) : null,
    phaseAt: at(when),
    generatorUrl: null,
    receivedAt: at(when),
  };
}

describe('draftFromFacts', () => {
  it('lists the reported changes the investigations cite on the timeline, each once, citing the run that read it', () => {
    const change = {
      id: '0190a000-0000-7000-8000-00000000c001',
      occurredAt: '2026-11-20T09:52:00.000000Z',
      kind: 'feature_flag',
      service: 'checkout',
      summary: 'Turned checkout.new-pricing on',
      author: 'ada',
      source: 'generic',
      runOrdinal: 3,
    };
    const investigation = (id: string): InvestigationRecord => ({
      id,
      incidentId: incident.id,
      status: 'concluded',
      subject: 'Checkout fails',
      conclusionStatus: 'verified_cause',
      summary: 'The flag',
      impact: null,
      findings: [],
      hypotheses: [],
      actions: [],
      limitations: [],
      createdAt: at('2026-11-20T10:06:00Z'),
      concludedAt: null,
      runOrdinals: [1, 2, 3],
      citedChanges: [change],
    });
    const first = '0190a000-0000-7000-8000-00000000b001';
    const doc = draftFromFacts({
      history: { incident, alertEvents: [phase(1, 'firing', T0)], alertEventTotal: 1, merged: [] },
      investigations: [investigation(first), investigation('0190a000-0000-7000-8000-00000000b002')],
    });
    const changes = doc.timeline.filter((t) => t.source?.kind === 'change');
    expect(changes).toEqual([
      {
        at: '2026-11-20T09:52:00.000000Z',
        description: 'Change (feature flag of checkout, reported through generic): Turned checkout.new-pricing on, by ada',
        runRefs: [3],
        investigationId: first,
        source: { kind: 'change', id: change.id },
      },
    ]);
    expect(doc.timeline[0].source?.kind).toBe('change');
  });

  it('orders simultaneous entries: the incident opens before its alert fires, the alert resolves before the incident', () => {
    const doc = draftFromFacts({
      history: { incident, alertEvents: [phase(1, 'resolved', T1), phase(1, 'firing', T0)], alertEventTotal: 2, merged: [] },
      investigations: [],
    });
    expect(doc.timeline.map((t) => [t.at, t.description])).toEqual([
      [T0, 'Incident "Checkout fails" opened'],
      [T0, 'Alert A1 fired'],
      [T1, 'Alert A1 resolved'],
      [T1, 'Incident resolved: every alert in it resolved'],
    ]);
    // Without investigations, what they would have found is for a person to write.
    expect(doc.rootCauses).toEqual([{ statement: NEEDS_HUMAN_INPUT, runRefs: [], investigationId: null }]);
    expect(doc.detection).toContain(`No investigation dated the onset, so the delay between the onset and the alert: ${NEEDS_HUMAN_INPUT}`);
    expect(doc.actionItems).toEqual([]);
    expect(doc.resolution).toBe(NEEDS_HUMAN_INPUT);
  });

  it('says how many alert phases it did not list, and lists at most LIST_MAX entries', () => {
    const events = Array.from({ length: 1200 }, (_, i) => phase(i + 1, 'firing', T0));
    const listed = draftFromFacts({ history: { incident, alertEvents: events.slice(0, 900), alertEventTotal: 1500, merged: [] }, investigations: [] });
    expect(listed.timeline).toHaveLength(903);
    expect(listed.timeline.at(-1)!.description).toBe("600 more events are not listed here; the incident's alert events hold every one");
    const capped = draftFromFacts({ history: { incident, alertEvents: events, alertEventTotal: 1200, merged: [] }, investigations: [] });
    expect(capped.timeline).toHaveLength(LIST_MAX);
    // 1202 entries (the opening, 1200 alerts, the resolution): 999 listed, 203 more.
    expect(capped.timeline.at(-1)!.description).toBe("203 more events are not listed here; the incident's alert events hold every one");
  });

  describe('detection dates the onset the best investigation dated', () => {
    const ID = '0190a000-0000-7000-8000-00000000a001';
    const OTHER = '0190a000-0000-7000-8000-00000000a002';
    const firing = { ...phase(1, 'firing', '2026-11-20T10:05:00.000000Z'), startsAt: at('2026-11-20T10:05:00.000000Z') };
    const investigation = (id: string, conclusionStatus: InvestigationRecord['conclusionStatus'], findings: FindingItem[]): InvestigationRecord => ({
      id,
      incidentId: incident.id,
      status: 'concluded',
      subject: 'Checkout fails',
      conclusionStatus,
      summary: 'A bad release',
      impact: null,
      findings,
      hypotheses: [],
      actions: [],
      limitations: [],
      createdAt: at('2026-11-20T10:06:00Z'),
      concludedAt: at('2026-11-20T10:07:00Z'),
      runOrdinals: [1, 2, 3, 4],
      citedChanges: [],
    });
    const cause = (onsetAt: string, runRefs: number[]): FindingItem => ({
      kind: 'cause',
      statement: `Release 1.1.0 fails requests (${onsetAt})`,
      mechanism: '',
      runRefs,
      evidenceRefs: [],
      verification: { causeAt: '2026-11-20T09:58:00Z', onsetAt, mechanismRunRefs: [runRefs[0]], unexplained: [] },
    });
    const symptom = (statement: string, runRefs: number[]): FindingItem => ({ kind: 'symptom', statement, mechanism: '', runRefs, evidenceRefs: [] });
    const detectionOf = (...investigations: InvestigationRecord[]) =>
      draftFromFacts({ history: { incident, alertEvents: [firing], alertEventTotal: 1, merged: [] }, investigations }).detection;

    it("reads the earliest onsetAt of the cause findings' verification, before any timestamp in a symptom's text", () => {
      const detection = detectionOf(
        investigation(ID, 'verified_cause', [
          symptom('The error rate began to hold at 2026-11-20T10:03:30Z', [1]),
          cause('2026-11-20T10:02:00+00:00', [2, 3]),
          cause('2026-11-20T10:01:00Z', [4]),
        ]),
      );
      expect(detection).toContain(
        `The condition began at 2026-11-20T10:01:00.000000Z [investigation ${ID}, run #4]; the alert fired 4 min 0 s after the onset.`,
      );
    });

    it('falls back to the earliest timestamp its symptom findings state when no cause finding carries a verification', () => {
      const unverified = { ...cause('2026-11-20T10:01:00Z', [4]), verification: undefined };
      const detection = detectionOf(
        investigation(ID, 'supported_explanation', [
          unverified,
          symptom('The error rate began to hold at 2026-11-20T10:03:30Z, and latency at 2026-11-20T10:04:00Z', [1, 2]),
        ]),
      );
      expect(detection).toContain(
        `The condition began at 2026-11-20T10:03:30.000000Z [investigation ${ID}, runs #1, #2]; the alert fired 1 min 30 s after the onset.`,
      );
    });

    it('takes the onset from the best investigation that dated one, and says so when none did', () => {
      const weaker = investigation(OTHER, 'supported_explanation', [cause('2026-11-20T10:00:30Z', [1])]);
      const better = investigation(ID, 'verified_cause', [symptom('The error rate began to hold at 2026-11-20T10:05:00Z', [2])]);
      expect(detectionOf(weaker, better)).toContain(
        `The condition began at 2026-11-20T10:05:00.000000Z [investigation ${ID}, run #2]; the alert fired at the onset.`,
      );
      const undated = investigation(ID, 'verified_cause', [{ ...cause('not a time', [1]) }, symptom('No time here', [1])]);
      expect(detectionOf(undated, weaker)).toContain(`The condition began at 2026-11-20T10:00:30.000000Z [investigation ${OTHER}, run #1]`);
      expect(detectionOf(undated)).toContain(`No investigation dated the onset, so the delay between the onset and the alert: ${NEEDS_HUMAN_INPUT}`);
    });
  });
});
