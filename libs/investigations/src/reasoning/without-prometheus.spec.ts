import { describe, expect, it } from 'vitest';
import { onset, recordRun, sessionOf, T } from '../../../../test/support/scripted-prometheus';
import type { Conclusion } from '../conclusion.types';
import type { AlertBrief, RecordedRun, SourceBrief, ToolCall } from './reasoner';
import { concludeWithDatastores, readDatastoresWithoutPrometheus } from './without-prometheus';

const SHOP_DB: SourceBrief = {
  integrationId: '0190a0b0-0000-7000-8000-0000000000a1',
  type: 'postgresql',
  name: 'Shop database',
  rank: 1,
  reason: '',
  services: ['billing'],
  addresses: ['ordersdb', 'ordersdb:5432'],
};
const CACHE: SourceBrief = {
  integrationId: '0190a0b0-0000-7000-8000-0000000000a2',
  type: 'redis',
  name: 'sessions-redis',
  rank: 2,
  reason: '',
  services: ['billing'],
};

const alert = (labels: Record<string, string>): AlertBrief => ({
  fingerprint: 'f',
  status: 'firing',
  labels,
  annotations: {},
  startsAt: onset,
  endsAt: null,
  generatorUrl: null,
});

/** The conclusion the built-in reasoner gives from the alerts alone (run 1 read them). */
const fromAlerts: Conclusion = {
  conclusionStatus: 'inconclusive',
  summary: 'The condition began at 2026-11-22T02:30:00.000Z. No change near the onset (new build, restart, target down) was found in the metrics.',
  impact: { summary: '1 alert(s)', runRefs: [1] },
  findings: [],
  hypotheses: [],
  actions: [],
  limitations: [
    {
      type: 'missing_telemetry',
      statement: 'No Prometheus integration is connected, so the alert could not be compared with metrics',
      runRefs: [],
      messageSequences: [],
    },
  ],
  plot: { symptom: null, cause: null, onsetAt: T(30), alertStartsAt: T(30), changes: [] },
};

/**
 * A session of one alert without Prometheus whose datastore reads are answered by `answer` (a run's
 * output, or an Error for a failed run); run 1 is the alerts' read.
 */
function session(sources: SourceBrief[], labels: Record<string, string>, answer: (call: ToolCall) => unknown) {
  const s = sessionOf({ from: onset.plusSeconds(-3600), until: onset.plusSeconds(900) }, sources, (call: ToolCall, runs: RecordedRun[]) => {
    const out = answer(call);
    if (out instanceof Error)
      return Object.assign(recordRun(runs, call, null, `${call.tool} failed: ${out.message}`), { outcome: 'failed' as const, error: out.message });
    return recordRun(runs, call, out, `${call.tool} answered`);
  });
  recordRun(s.runs, { tool: 'incident.alert_events', integrationId: null, arguments: {}, purpose: 'Which alerts fired' }, {});
  return Object.assign(s, { alerts: [alert(labels)] });
}

describe('the conclusion of an investigation without Prometheus, from the datastores it read', () => {
  it('says what a datastore showed that was no cause, and that a failed read of it is not known', async () => {
    // A lock held from two hours before the onset (not what changed near it); the connections could not be read.
    const s = session([SHOP_DB, CACHE], { alertname: 'OrdersSlow', service: 'orders', instance: 'ordersdb:5432' }, (call) =>
      call.tool === 'postgresql.locks'
        ? {
            waiting: 1,
            blockers: [{ pid: 42, application: 'nightly-batch', user: 'shop', blocksSessions: 1, transactionStart: onset.plusSeconds(-7200).toISOString() }],
            waits: [{ pid: 43, application: 'orders', rootBlockers: [42], waitStarted: onset.plusSeconds(-7100).toISOString() }],
          }
        : new Error('Could not connect to ordersdb:5432: connection refused'),
    );
    const read = await readDatastoresWithoutPrometheus(s, onset, []);
    const concluded = concludeWithDatastores(fromAlerts, read, s);

    expect(s.runs.map((r) => [r.tool, r.outcome])).toEqual([
      ['incident.alert_events', 'succeeded'],
      ['postgresql.locks', 'succeeded'],
      ['postgresql.connections', 'failed'],
    ]);
    expect(concluded.conclusionStatus).toBe('inconclusive');
    expect(concluded.findings).toEqual([
      {
        kind: 'context',
        statement:
          `Shop database (PostgreSQL) was read and showed no cause dated near the onset (${onset.toISOString()}): pid 42 (nightly-batch) blocked 1 session(s) in a transaction open from ${onset.plusSeconds(-7200).toISOString()}, not near the onset. ` +
          'What was read: postgresql.locks (#2): postgresql.locks answered; postgresql.connections (#3) failed, so that part of it is not known',
        mechanism: '',
        runRefs: [2],
        evidenceRefs: [{ investigationId: s.investigationId, toolRunOrdinal: 2 }],
      },
    ]);
    expect(concluded.summary).toBe(
      `The alert began at ${onset.toISOString()}. No Prometheus is connected, so the datastores the alert names or that serve its services were asked with their own tools: ` +
        'Shop database (postgresql.locks (#2)): no cause dated near the onset, postgresql.connections (#3) failed.',
    );
    expect(concluded.hypotheses).toEqual([]);
  });

  it('names the datastores not read when none serves the alert, and leaves a conclusion without datastores as it was', async () => {
    const s = session([SHOP_DB, CACHE], { alertname: 'CartSlow', service: 'cart' }, () => {
      throw new Error('nothing is read');
    });
    const concluded = concludeWithDatastores(fromAlerts, await readDatastoresWithoutPrometheus(s, onset, []), s);
    expect(s.runs).toHaveLength(1);
    expect(concluded.limitations.at(-1)).toEqual({
      type: 'scope',
      statement:
        "No datastore or broker integration serves cart or is named by the alert's labels (by its name, host or host:port): none of Shop database, sessions-redis was read",
      runRefs: [],
      messageSequences: [],
    });
    expect(concluded.summary).toBe(`The alert began at ${onset.toISOString()}. No Prometheus is connected, and no datastore serving it was found to read.`);

    const none = session([], { alertname: 'CartSlow', service: 'cart' }, () => undefined);
    expect(await readDatastoresWithoutPrometheus(none, onset, [])).toBeNull();
    expect(concludeWithDatastores(fromAlerts, null, none)).toBe(fromAlerts);
  });
});
