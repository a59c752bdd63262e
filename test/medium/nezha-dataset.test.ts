import { describe, expect, it } from 'vitest';
import { AFTER_SECONDS, BEFORE_SECONDS, EDGE_BUCKETS, loadDataset } from '../../eval/nezha/dataset';
import { families } from '../../eval/nezha/openmetrics';
import { pageOf, RULE, scoreFault, servicesNamed } from '../../eval/nezha/replay';
import { DerivedAlert, InvestigationRead } from '../../eval/harness';
import { loadLogs } from '../../eval/nezha/logs';

/**
 * The committed conversion of the Nezha TrainTicket days (eval/nezha/trainticket.json.br) and the
 * suite's reading of it: what the replay of `npm run eval -- --suite=nezha-trainticket` relies on.
 */
describe('the Nezha TrainTicket conversion', () => {
  const dataset = loadDataset();

  it('holds the 45 faults of the two days, with their kinds, on the clock of the metrics', () => {
    expect(dataset.faults).toHaveLength(45);
    expect(dataset.faults.filter((f) => f.day === '2023-01-29')).toHaveLength(28);
    expect(dataset.faults.filter((f) => f.day === '2023-01-30')).toHaveLength(17);
    const kinds = (k: string): number => dataset.faults.filter((f) => f.kind === k).length;
    expect([kinds('cpu'), kinds('network'), kinds('code')]).toEqual([7, 14, 24]);
    expect(new Set(dataset.faults.map((f) => f.id)).size).toBe(45);
    for (const f of dataset.faults) {
      expect(new Date(f.at * 1000).toISOString().slice(0, 10)).toBe(f.day);
      expect(f.pod.startsWith(`${f.service}-`)).toBe(true);
    }
    // The code faults' listed timestamps are eight hours before their (and the metrics') time.
    const first = dataset.faults[0];
    expect(first.id).toBe('2023-01-29-0843-ts-contacts-service');
    expect(Math.round((first.at - first.listedTimestamp) / 3600)).toBe(8);
  });

  it("keeps every fault's window of the faulty pod, a sample a minute, in time order", () => {
    for (const f of dataset.faults) {
      const day = dataset.days.find((d) => d.day === f.day)!;
      const pod = day.pods.find((p) => p.pod === f.pod)!;
      expect(pod, f.id).toBeDefined();
      expect(pod.service).toBe(f.service);
      const dayStart = Math.min(...day.pods.map((p) => p.t[0]));
      const window = pod.t.filter((t) => t >= f.at - BEFORE_SECONDS && t <= f.at + AFTER_SECONDS);
      expect(window[0] - Math.max(dayStart, f.at - BEFORE_SECONDS), f.id).toBeLessThan(120);
      expect(f.at + AFTER_SECONDS - window[window.length - 1], f.id).toBeLessThan(120);
      for (let i = 1; i < window.length; i++) expect(window[i] - window[i - 1]).toBeGreaterThanOrEqual(50);
      for (let i = 1; i < window.length; i++) expect(window[i] - window[i - 1]).toBeLessThanOrEqual(70);
      for (const values of Object.values<number[]>(pod.values)) expect(values).toHaveLength(pod.t.length);
      // Every faulty pod served requests (its latency was recorded); ts-security-service's CPU reads 0 throughout.
      expect(pod.values.serverP90.some((v) => v > 0)).toBe(true);
      expect(pod.values.cpuMillicores.some((v) => v > 0)).toBe(f.service !== 'ts-security-service');
    }
    for (const day of dataset.days) {
      expect(day.pods).toHaveLength(46);
      expect(new Set(day.pods.map((p) => p.node)).size).toBe(day.nodes.length);
      for (const r of [...day.pods, ...day.nodes, day.frontend]) for (let i = 1; i < r.t.length; i++) expect(r.t[i]).toBeGreaterThan(r.t[i - 1]);
    }
  });

  it('writes a window shifted, with counters whose rate is the recorded rate', () => {
    const f = dataset.faults.find((x) => x.id === '2023-01-29-1449-ts-food-service')!;
    const day = dataset.days.find((d) => d.day === f.day)!;
    const shift = 1_000_000;
    const written = families(dataset, day, f.at - 600, f.at + 300, shift);
    const cpu = written.find((x) => x.name === 'container_cpu_usage_seconds_total')!.series.find((s) => s.labels.pod === f.pod)!;
    const pod = day.pods.find((p) => p.pod === f.pod)!;
    const recorded = pod.t.map((t, i) => [t, pod.values.cpuMillicores[i]] as const).filter(([t]) => t >= f.at - 600 && t <= f.at + 300);
    expect(cpu.samples.map(([t]) => t)).toEqual(recorded.map(([t]) => t + shift));
    for (let i = 1; i < cpu.samples.length; i++) {
      const rate = (cpu.samples[i][1] - cpu.samples[i - 1][1]) / (cpu.samples[i][0] - cpu.samples[i - 1][0]);
      expect(rate).toBeCloseTo(recorded[i][1] / 1000, 6);
    }
    // The CPU contention shows: the pod used at least ten times its CPU of ten minutes before.
    expect(Math.max(...recorded.filter(([t]) => t >= f.at).map(([, v]) => v))).toBeGreaterThan(10 * recorded[0][1]);
    const p90 = written.find((x) => x.name === 'http_server_request_duration_seconds')!.series.filter((s) => s.labels.quantile === '0.9');
    expect(p90.map((s) => s.labels.service)).toContain(f.service);
    expect(RULE.expr).not.toMatch(/ts-|pod=/);
  });

  it('holds the calls between services the traces show, per traced minute, on both days', () => {
    for (const day of dataset.days) {
      expect(day.edges.length, day.day).toBeGreaterThan(40);
      const traced = new Set(day.traced);
      // Every injection's minute and the two after it are traced.
      for (const f of dataset.faults.filter((x) => x.day === day.day))
        for (let k = 0; k <= 2; k++) expect(traced.has(Math.floor(f.at / 60) * 60 + 60 * k), `${f.id} +${k}`).toBe(true);
      for (const e of day.edges) {
        expect(e.client).not.toBe(e.server);
        for (const t of e.t) expect(traced.has(t)).toBe(true);
        for (let i = 1; i < e.t.length; i++) expect(e.t[i]).toBeGreaterThan(e.t[i - 1]);
        for (const side of [e.clientSeconds, e.serverSeconds]) {
          expect(side.buckets).toHaveLength(EDGE_BUCKETS.length);
          e.t.forEach((_, i) => expect(side.buckets.reduce((n, b) => n + b[i], 0)).toBe(e.calls[i]));
          expect(side.sum).toHaveLength(e.t.length);
        }
      }
      const edge = (client: string, server: string) => day.edges.find((e) => e.client === client && e.server === server);
      expect(edge('ts-gateway-service', 'ts-auth-service'), day.day).toBeDefined();
      expect(edge('ts-basic-service', 'ts-route-service'), day.day).toBeDefined();
    }
  });

  it('writes the call graph as service-graph metrics: a network delay on ts-route-service shows at its callers, not its own serving', () => {
    const f = dataset.faults.find((x) => x.id === '2023-01-30-1344-ts-route-service')!;
    const day = dataset.days.find((d) => d.day === f.day)!;
    const shift = 1_000_000;
    const written = families(dataset, day, f.at - 600, f.at + 300, shift);
    const series = (name: string, client: string, server: string): Array<[number, number]> =>
      written.find((x) => x.name === name)!.series.find((s) => s.labels.client === client && s.labels.server === server && s.labels.job === 'otel-collector')!
        .samples;
    // The mean latency of the calls of the minutes after the injection's: Δsum / Δcount from the end of the injection's minute.
    const after = (side: 'client' | 'server', client: string, server: string): number => {
      const sum = series(`traces_service_graph_request_${side}_seconds_sum`, client, server);
      const count = series(`traces_service_graph_request_${side}_seconds_count`, client, server);
      const since = Math.floor(f.at / 60) * 60 + 60 + shift;
      const i = sum.findIndex(([t]) => t === since);
      const j = sum.findIndex(([t]) => t === since + 120);
      expect([i, j].every((k) => k >= 0) && count[j][1] > count[i][1]).toBe(true);
      return (sum[j][1] - sum[i][1]) / (count[j][1] - count[i][1]);
    };
    expect(after('client', 'ts-basic-service', 'ts-route-service')).toBeGreaterThan(1);
    expect(after('server', 'ts-basic-service', 'ts-route-service')).toBeLessThan(0.05);
    const others = day.edges.filter((e) => e.client === 'ts-basic-service' && e.server !== 'ts-route-service');
    expect(others.length).toBeGreaterThanOrEqual(3);
    for (const e of others) expect(after('client', e.client, e.server) - after('server', e.client, e.server), e.server).toBeLessThan(0.05);
    // The request counter counts what the histograms count, and the +Inf bucket every call.
    const calls = series('traces_service_graph_request_total', 'ts-basic-service', 'ts-route-service');
    expect(series('traces_service_graph_request_client_seconds_count', 'ts-basic-service', 'ts-route-service')).toEqual(calls);
    const inf = written
      .find((x) => x.name === 'traces_service_graph_request_server_seconds_bucket')!
      .series.find((s) => s.labels.client === 'ts-basic-service' && s.labels.server === 'ts-route-service' && s.labels.le === '+Inf')!;
    expect(inf.samples).toEqual(calls);
    // Within the window and shifted, as every family.
    for (const [t] of calls) expect(t - shift >= f.at - 600 && t - shift <= f.at + 300).toBe(true);
  });

  it('writes the service-graph counters monotonic over a day, across its separate trace windows, the buckets cumulative', () => {
    for (const day of dataset.days) {
      const written = families(dataset, day, -Infinity, Infinity, 0).filter((x) => x.name.startsWith('traces_service_graph_'));
      expect(written.map((x) => x.name).sort()).toEqual(
        [
          'traces_service_graph_request_total',
          ...['client', 'server'].flatMap((side) => ['bucket', 'sum', 'count'].map((s) => `traces_service_graph_request_${side}_seconds_${s}`)),
        ].sort(),
      );
      const decreasing = written.flatMap((family) =>
        family.series
          .filter((s) => s.samples.some(([t, v], i) => i > 0 && (t <= s.samples[i - 1][0] || v < s.samples[i - 1][1])))
          .map((s) => `${family.name} ${JSON.stringify(s.labels)}`),
      );
      expect(decreasing).toEqual([]);
      // Each window starts with the total before it, so rate() has two samples after its first minute.
      const total = written.find((x) => x.name === 'traces_service_graph_request_total')!.series[0].samples;
      const windows = day.traced.filter((t, i) => i === 0 || day.traced[i - 1] !== t - 60);
      expect(total).toHaveLength(day.traced.length + windows.length);
      expect(total[0]).toEqual([day.traced[0], 0]);
      const bucket = written.find((x) => x.name === 'traces_service_graph_request_client_seconds_bucket')!.series;
      const edge = (s: { labels: Record<string, string> }): string => `${s.labels.client} ${s.labels.server}`;
      const bound = (s: { labels: Record<string, string> }): number => Number(s.labels.le.replace('+Inf', 'Infinity'));
      const notCumulative = bucket.filter((s) =>
        bucket.some((o) => edge(o) === edge(s) && bound(o) > bound(s) && s.samples.some(([, v], i) => o.samples[i][1] < v)),
      );
      expect(notCumulative).toEqual([]);
    }
  });

  it('takes the first alert pending after the injection as the page', () => {
    const f = dataset.faults[0];
    const alert = (service: string, activeAt: number): DerivedAlert => ({
      rule: RULE,
      labels: { alertname: RULE.alert, service },
      annotations: {},
      activeAt,
      firedAt: activeAt + 60,
      resolvedAt: null,
    });
    expect(pageOf(f, [alert('a', f.at - 60), alert('b', f.at + 240), alert('c', f.at + 120)])?.labels.service).toBe('c');
    expect(pageOf(f, [alert('a', f.at - 60), alert('b', f.at + 1200)])).toBeUndefined();
  });

  it('scores the service named by the first cause (top-1) and among the first three candidates (top-3)', () => {
    const services = [...new Set(dataset.days[0].pods.map((p) => p.service))];
    expect(servicesNamed('ts-travel2-service calls ts-admin-travel-service', services)).toEqual(['ts-travel2-service', 'ts-admin-travel-service']);
    expect(servicesNamed('pod ts-travel-service-64469b5b48-25zj6 is slow', services)).toEqual(['ts-travel-service']);
    const f = dataset.faults.find((x) => x.service === 'ts-travel-service')!;
    const read = (causes: string[], hypotheses: Array<[string, string]>): InvestigationRead =>
      ({
        id: 'i',
        status: 'concluded',
        conclusionStatus: 'verified_cause',
        findings: causes.map((statement) => ({ kind: 'cause', statement, mechanism: '', runRefs: [1] })),
        hypotheses: hypotheses.map(([statement, status], i) => ({ id: `h-${i}`, statement, status, runRefs: [] })),
        runs: [{ ordinal: 1, tool: 'prometheus.query_range', outcome: 'succeeded', arguments: {}, summary: null }],
      }) as InvestigationRead;
    const right = scoreFault(f, services, read(['ts-travel-service is slow'], []), 1, []);
    expect([right.top1, right.top3, right.falseVerified, right.citationsExist]).toEqual([true, true, false, true]);
    const third = scoreFault(
      f,
      services,
      read(
        ['ts-gateway-service is slow'],
        [
          ['ts-basic-service is slow', 'refuted'],
          ['ts-ui-dashboard is slow', 'supported'],
          ['ts-travel-service is slow', 'untested'],
        ],
      ),
      1,
      [],
    );
    expect(third.candidates).toEqual(['ts-gateway-service', 'ts-ui-dashboard', 'ts-travel-service']);
    expect([third.top1, third.top3, third.falseVerified]).toEqual([false, true, true]);
    const fourth = scoreFault(f, services, read(['ts-gateway-service and ts-ui-dashboard', 'ts-seat-service'], [['ts-travel-service', 'untested']]), 1, []);
    expect(fourth.top3).toBe(false);
  });
});

/**
 * The committed conversion of the same days' logs (eval/nezha/trainticket-logs.jsonl.br): each
 * pod's lines around the injections, in time order, from the same commit as the metrics.
 */
describe('the Nezha TrainTicket logs', () => {
  const dataset = loadDataset();
  const logs = loadLogs();
  const SECOND = 1_000_000_000n;

  it('come from the commit the metrics come from, a stream per pod and container of each day, in time order', () => {
    expect(logs.source).toEqual(dataset.source);
    expect(logs.streams.filter((s) => s.day === '2023-01-29')).toHaveLength(27);
    expect(logs.streams.filter((s) => s.day === '2023-01-30')).toHaveLength(27);
    expect(logs.streams.reduce((n, s) => n + s.text.length, 0)).toBe(267_301);
    for (const s of logs.streams) {
      expect(s.ns).toHaveLength(s.text.length);
      expect(
        s.ns.every((t, i) => i === 0 || t >= s.ns[i - 1]),
        s.pod,
      ).toBe(true);
      expect(new Date(Number(s.ns[0] / 1_000_000n)).toISOString().slice(0, 10)).toBe(s.day);
    }
  });

  it("hold every faulty pod's lines from a minute before its injection to two minutes after", () => {
    for (const f of dataset.faults) {
      const at = BigInt(f.at) * SECOND;
      const near = logs.streams.filter((s) => s.pod === f.pod).flatMap((s) => s.ns.filter((t) => t >= at - 60n * SECOND && t <= at + 120n * SECOND));
      expect(near.length, f.id).toBeGreaterThan(0);
    }
  });

  it('show the first code fault as an error its pod never wrote before the injection', () => {
    const f = dataset.faults[0];
    const stream = logs.streams.find((s) => s.pod === f.pod)!;
    const at = BigInt(f.at) * SECOND;
    const errors = stream.ns.filter((_t, i) => /\bERROR\b.*No contacts according to contactsId/.test(stream.text[i]));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((t) => t > at)).toBe(true);
    expect(stream.ns.some((t) => t < at)).toBe(true);
    // Trace ids are numbered, not dropped: the lines of one trace stay joined.
    expect(stream.text[0]).toMatch(/TraceID: [0-9a-f]{32} SpanID: [0-9a-f]{16}/);
  });
});
