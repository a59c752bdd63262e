import { describe, expect, it } from 'vitest';
import type { AlertPhaseRecord, IncidentRecord } from '@svc/incidents';
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
});
