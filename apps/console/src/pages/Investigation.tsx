import { lazy, type ReactNode, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { api, organizationPath, type Schemas } from '../api/client';
import { formatRelative, formatTime, instantOf, withLocalTimes, zoneLabel } from '../clock';
import { Link } from '../router';
import { useCan } from '../session';
import { ConfirmButton, ErrorMessage, Show, Status, time, useAction, useLoad, useTitle } from '../ui';
import { formatValue, roundedNumbers, unitOf } from '../units';
import type { Marker } from './SeriesPlot';

const SeriesPlot = lazy(() => import('./SeriesPlot'));
const RANGE_TOOL = 'prometheus.query_range';
const PATTERNS_TOOL = 'loki.log_patterns';

/** The stream's event kinds (docs/api.md, Event stream); an unknown future kind is listed as it came. */
const EVENT_KINDS = ['started', 'progress', 'tool.started', 'tool.completed', 'concluded', 'failed', 'cancelled'];
const TERMINAL = new Set(['concluded', 'failed', 'cancelled']);

export interface StreamEvent {
  sequence: number;
  type: string;
  at?: string;
  data?: Record<string, unknown>;
}

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'ended';

/**
 * The investigation's event stream through EventSource. The browser reconnects by itself after a
 * drop, sending Last-Event-ID (the last sequence it received), so the API resumes strictly after
 * it; events are kept by sequence, so one is never shown twice. When the browser gives up (the
 * API answered with an error while it was down), a new EventSource is opened after two seconds and
 * the events it repeats are dropped by their sequence.
 */
export function useInvestigationStream(id: string, onEvent: (event: StreamEvent) => void): { events: StreamEvent[]; connection: Connection } {
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [connection, setConnection] = useState<Connection>('connecting');
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    const seen = new Set<number>();
    let source: EventSource | null = null;
    let ended = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      source = new EventSource(organizationPath(`/api/v1/investigations/${id}/events`));
      const handle = (message: MessageEvent<string>) => {
        let envelope: StreamEvent;
        try {
          envelope = JSON.parse(message.data) as StreamEvent;
        } catch {
          return;
        }
        const sequence = Number(message.lastEventId || envelope.sequence);
        if (seen.has(sequence)) return;
        seen.add(sequence);
        const event = { ...envelope, sequence, type: envelope.type ?? message.type };
        setEvents((list) => [...list, event].sort((a, b) => a.sequence - b.sequence));
        onEventRef.current(event);
        if (TERMINAL.has(event.type)) {
          ended = true;
          source?.close();
          setConnection('ended');
        }
      };
      for (const kind of EVENT_KINDS) source.addEventListener(kind, handle as EventListener);
      source.onmessage = handle;
      source.onopen = () => setConnection('live');
      source.onerror = () => {
        if (ended) return;
        if (source?.readyState === EventSource.CLOSED) {
          setConnection('reconnecting');
          retry = setTimeout(open, 2_000);
        } else setConnection('reconnecting');
      };
    };
    open();
    return () => {
      ended = true;
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [id]);
  return { events, connection };
}

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: 'Connecting to the live event stream…',
  live: 'Live',
  reconnecting: 'Connection lost: reconnecting and resuming from the last event…',
  ended: 'The investigation has ended',
};

function RunRefs({ refs }: { refs: number[] }) {
  if (!refs.length) return null;
  return (
    <span className="refs">
      {' '}
      [
      {refs.map((n, i) => (
        <span key={n}>
          {i ? ', ' : ''}
          <a href={`#run-${n}`} aria-label={`Tool run ${n}`}>
            #{n}
          </a>
        </span>
      ))}
      ]
    </span>
  );
}

/** An investigation, live: events, tool runs, conclusion with cited evidence, cancel and the report. */
export function InvestigationPage({ id }: { id: string }) {
  const can = useCan();
  const [detail, reload] = useLoad(() => api.GET('/api/v1/investigations/{investigation}', { params: { path: { investigation: id } } }), [id]);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { events, connection } = useInvestigationStream(id, () => {
    // Several events often come together: read the investigation once after them.
    clearTimeout(pending.current);
    pending.current = setTimeout(reload, 300);
  });
  useEffect(() => () => clearTimeout(pending.current), []);
  // Back after a drop: read the investigation again, since the page may have missed a change.
  useEffect(() => {
    if (connection === 'live') reload();
  }, [connection, reload]);
  useTitle(detail.state === 'ready' ? detail.data.subject : 'Investigation');
  const [cancelError, cancelling, runCancel] = useAction();
  const [plotted, setPlotted] = useState<number | null>(null);
  const prometheus = usePrometheusUrls();
  // Arrived from a citation elsewhere (`#run-4`): the run, once the runs are shown.
  const shownRuns = detail.state === 'ready' ? (detail.data.runs?.length ?? 0) : 0;
  const arrivedAt = useRef<string | null>(null);
  useEffect(() => {
    const target = location.hash.startsWith('#run-') ? document.getElementById(location.hash.slice(1)) : null;
    if (!target || arrivedAt.current === location.hash) return;
    arrivedAt.current = location.hash;
    target.scrollIntoView();
    target.focus();
  }, [shownRuns]);

  return (
    <Show loaded={detail}>
      {(v) => (
        <>
          <h1>{v.subject}</h1>
          <p>
            <Status value={v.status} /> {v.conclusionStatus ? <Status value={v.conclusionStatus} /> : null} · window {time(v.windowFrom)} –{' '}
            {time(v.windowUntil)}
            {v.incidentId ? (
              <>
                {' '}
                · <Link to={`/incidents/${v.incidentId}`}>incident</Link>
              </>
            ) : null}{' '}
            · reasoner {v.reasoner ?? '—'}
          </p>
          <p role="status" aria-live="polite" data-connection={connection}>
            {CONNECTION_TEXT[connection]}
          </p>
          <p>
            <a href={organizationPath(`/api/v1/investigations/${id}/report`)} download={`investigation-${id}.md`}>
              Markdown report
            </a>{' '}
            {can('investigations:cancel') && ['queued', 'investigating'].includes(v.status) ? (
              <ConfirmButton
                label="Cancel investigation"
                consequence="The investigation stops where it is and cannot be resumed; what it found so far is kept."
                confirm="Stop the investigation"
                disabled={cancelling}
                onConfirm={() =>
                  void runCancel(() => api.POST('/api/v1/investigations/{investigation}/cancel', { params: { path: { investigation: id } } })).then(reload)
                }
              />
            ) : null}
          </p>
          <ErrorMessage message={cancelError} />
          {v.error ? <ErrorMessage message={v.error} /> : null}
          <Conclusion investigation={v} />
          <Evidence investigation={v} chosen={plotted} prometheus={prometheus} />
          <section aria-labelledby="runs-heading">
            <h2 id="runs-heading">Tool runs</h2>
            {v.runs?.length ? (
              <ol className="runs">
                {v.runs.map((r) => (
                  <li key={r.ordinal} id={`run-${r.ordinal}`} tabIndex={-1}>
                    <strong>
                      #{r.ordinal} {r.tool}
                    </strong>{' '}
                    <Status value={r.outcome} /> {r.purpose}
                    <RunQuery run={r} prometheus={prometheus} />
                    {r.tool === RANGE_TOOL && r.outcome === 'succeeded' && !r.summary?.startsWith('No series') ? (
                      <>
                        {' '}
                        <button type="button" className="secondary" onClick={() => setPlotted(r.ordinal)}>
                          Plot run #{r.ordinal}
                        </button>
                      </>
                    ) : null}
                    {r.summary ? <div>{roundedNumbers(withLocalTimes(r.summary))}</div> : null}
                    {r.error ? <div className="error">{r.error}</div> : null}
                    {r.tool === PATTERNS_TOOL && r.outcome === 'succeeded' ? <LogTemplates investigationId={v.id} ordinal={r.ordinal} /> : null}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="empty">No tool runs yet.</p>
            )}
          </section>
          <section aria-labelledby="events-heading">
            <h2 id="events-heading">Events</h2>
            {events.length ? (
              <ol className="events" aria-label="Event stream" tabIndex={0}>
                {events.map((e) => (
                  <li key={e.sequence} data-sequence={e.sequence}>
                    {e.sequence} {e.at ? formatTime(e.at) : ''} {e.type} {withLocalTimes(describe(e))}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="empty">No events yet.</p>
            )}
          </section>
          <p>
            Usage: {v.usage.inputTokens} input and {v.usage.outputTokens} output tokens{v.stoppedBy ? `; stopped by ${v.stoppedBy.replace(/_/g, ' ')}` : ''}.
          </p>
        </>
      )}
    </Show>
  );
}

function describe(event: StreamEvent): string {
  const d = event.data ?? {};
  if (typeof d.message === 'string') return d.message;
  if (typeof d.tool === 'string') return `#${String(d.ordinal)} ${d.tool}${typeof d.outcome === 'string' ? ` ${d.outcome}` : ''}`;
  if (typeof d.summary === 'string') return d.summary;
  if (typeof d.status === 'string') return d.status;
  return '';
}

function Conclusion({ investigation: v }: { investigation: Schemas['InvestigationView'] }) {
  return (
    <>
      {v.summary ? (
        <section aria-labelledby="summary-heading">
          <h2 id="summary-heading">Conclusion</h2>
          <p>{withLocalTimes(v.summary)}</p>
          {v.impact ? (
            <p>
              Impact: {withLocalTimes(v.impact.summary)}
              <RunRefs refs={v.impact.runRefs} />
            </p>
          ) : null}
        </section>
      ) : null}
      {v.findings.length ? (
        <section aria-labelledby="findings-heading">
          <h2 id="findings-heading">Findings</h2>
          <ul>
            {v.findings.map((f, i) => (
              <li key={i}>
                <Status value={f.kind} /> {withLocalTimes(f.statement)}
                <RunRefs refs={f.runRefs} />
                {f.mechanism ? <div>Mechanism: {withLocalTimes(f.mechanism)}</div> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {v.hypotheses.length ? (
        <section aria-labelledby="hypotheses-heading">
          <h2 id="hypotheses-heading">Hypotheses</h2>
          <ul>
            {v.hypotheses.map((h, i) => (
              <li key={i}>
                <Status value={h.status} /> {withLocalTimes(h.statement)}
                <RunRefs refs={h.runRefs} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {v.actions.length ? (
        <section aria-labelledby="actions-heading">
          <h2 id="actions-heading">Proposed actions</h2>
          <p className="confirm">Nothing here has been done: each action needs a person to confirm and carry it out.</p>
          <ul>
            {v.actions.map((a, i) => (
              <li key={i}>
                <strong>{a.title}</strong> <span className="status">needs confirmation</span> — {withLocalTimes(a.rationale)} Verify:{' '}
                {withLocalTimes(a.verification)}
                <RunRefs refs={a.runRefs} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {v.limitations.length ? (
        <section aria-labelledby="limitations-heading">
          <h2 id="limitations-heading">Limitations</h2>
          <ul>
            {v.limitations.map((l, i) => (
              <li key={i}>
                <Status value={l.type} /> {withLocalTimes(l.statement)}
                <RunRefs refs={l.runRefs} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

type Investigation = Schemas['InvestigationView'];
type Run = Schemas['ToolRunView'];

const queryOf = (run: Run): string | null => (typeof run.arguments.query === 'string' ? run.arguments.query : null);

/**
 * Where Prometheus shows a run's query over the run's time: its graph for a range query, its table
 * for an instant one; null when the run is not a query or its integration has no base URL.
 */
export function prometheusLink(prometheus: Map<string, string>, run: Run): string | null {
  const query = queryOf(run);
  const baseUrl = run.integrationId ? prometheus.get(run.integrationId) : undefined;
  if (!query || !baseUrl || !run.tool.startsWith('prometheus.query')) return null;
  const argument = (name: string) => (typeof run.arguments[name] === 'string' ? (run.arguments[name] as string) : null);
  const from = argument('start') ?? run.windowFrom;
  const until = argument('end') ?? argument('time') ?? run.windowUntil;
  const end = instantOf(until) ?? new Date();
  const seconds = from && until ? Math.max(60, Math.round((end.getTime() - (instantOf(from)?.getTime() ?? end.getTime() - 3_600_000)) / 1000)) : 3600;
  const link = new URL('graph', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  const at = end.toISOString().slice(0, 19).replace('T', ' ');
  link.searchParams.set('g0.expr', query);
  link.searchParams.set('g0.tab', run.tool === RANGE_TOOL ? '0' : '1');
  link.searchParams.set('g0.range_input', `${seconds}s`);
  link.searchParams.set('g0.end_input', at);
  link.searchParams.set('g0.moment_input', at);
  return link.toString();
}

/** The base URLs of the Organization's Prometheus integrations, by id (for "open in Prometheus"). */
export function usePrometheusUrls(): Map<string, string> {
  const [loaded] = useLoad(() => api.GET('/api/v1/integrations', { params: { query: { type: 'prometheus', limit: 200 } } }), []);
  return useMemo(() => {
    const urls = new Map<string, string>();
    if (loaded.state === 'ready')
      for (const i of loaded.data.items) if (typeof i.config.baseUrl === 'string' && i.config.baseUrl) urls.set(i.id, i.config.baseUrl);
    return urls;
  }, [loaded]);
}

/** One run plotted: its query, the chart, its values as a table, and the query in Prometheus. */
function PlotPanel(props: {
  id: string;
  title: string;
  note?: string;
  view: Schemas['RunSeriesView'];
  run: Run | undefined;
  markers: Marker[];
  threshold?: number | null;
  prometheus: Map<string, string>;
}) {
  const { id, title, note, view, run, markers, threshold = null, prometheus } = props;
  const unit = unitOf(view.query);
  const zone = zoneLabel();
  const link = run ? prometheusLink(prometheus, run) : null;
  const times = [...new Set(view.series.flatMap((s) => s.times))].sort();
  // Each series' values by time, for the table's rows.
  const columns = view.series.map((s) => new Map(s.times.map((t, i) => [t, s.values[i]])));
  return (
    <div className="panel" id={id} tabIndex={-1}>
      <h3>{title}</h3>
      {note ? <p>{note}</p> : null}
      <p>
        <code>{view.query}</code> {link ? <a href={link}>Open in Prometheus</a> : null}
      </p>
      <Suspense fallback={<p role="status">Loading the chart…</p>}>
        <SeriesPlot
          view={view}
          markers={markers}
          from={run?.windowFrom ?? null}
          until={run?.windowUntil ?? null}
          unit={unit}
          zone={zone}
          threshold={threshold}
        />
      </Suspense>
      {view.series.length ? (
        <details>
          <summary>Values of run #{view.ordinal} as a table</summary>
          <div className="table-scroll">
            <table aria-label={`Values of run #${view.ordinal}`}>
              <thead>
                <tr>
                  <th scope="col">Time ({zone})</th>
                  {view.series.map((s) => (
                    <th key={s.name} scope="col">
                      {s.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {times.map((t) => (
                  <tr key={t}>
                    <td>{formatTime(t)}</td>
                    {columns.map((column, i) => (
                      <td key={view.series[i].name}>{formatValue(column.get(t) ?? null, unit)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </div>
  );
}

/**
 * The evidence plots. With the conclusion's plot (v.plot): the symptom (the alert's expression
 * without its comparison) with its threshold drawn, then the cause's own series, both marked with
 * the onset the conclusion states, the alert's start, the cause's time and the changes examined.
 * Without one (a conclusion nothing dates), the cause finding's range query with the most samples.
 * A run picked in the list ("Plot run #n") is shown first, and scrolled to.
 */
function Evidence({ investigation: v, chosen, prometheus }: { investigation: Investigation; chosen: number | null; prometheus: Map<string, string> }) {
  const runs = useMemo(() => (v.runs ?? []).filter((r) => r.tool === RANGE_TOOL && r.outcome === 'succeeded'), [v.runs]);
  const plot = v.plot;
  const cause = v.findings.find((f) => f.kind === 'cause');
  const cited = useMemo(() => (plot ? [] : runs.filter((r) => cause?.runRefs.includes(r.ordinal)).map((r) => r.ordinal)), [plot, runs, cause]);
  const symptomRun = plot?.symptom?.runOrdinal ?? null;
  const causeRun = plot?.cause && plot.cause.runOrdinal !== symptomRun ? plot.cause.runOrdinal : null;
  const ordinals = [...new Set([chosen, symptomRun, causeRun, ...cited].filter((n): n is number => n !== null))];
  const [loaded] = useLoad(async () => {
    const answers = await Promise.all(
      ordinals.map((ordinal) =>
        api.GET('/api/v1/investigations/{investigation}/runs/{ordinal}/series', { params: { path: { investigation: v.id, ordinal } } }),
      ),
    );
    const failed = answers.find((a) => !a.data);
    if (failed) return { error: failed.error, response: failed.response };
    return { data: answers.map((a) => a.data!), response: answers[0]?.response ?? new Response() };
  }, [v.id, ordinals.join(',')]);
  // A run picked in the list: its panel, once drawn.
  useEffect(() => {
    if (chosen !== null && loaded.state === 'ready') document.getElementById(`plot-run-${chosen}`)?.scrollIntoView();
  }, [chosen, loaded.state]);
  if (!ordinals.length) return null;
  const alertAt = plot?.alertStartsAt ?? null;
  const markers: Marker[] = [];
  if (plot?.onsetAt) markers.push({ label: 'onset', at: plot.onsetAt, color: '#b06000' });
  if (alertAt) markers.push({ label: 'alert', at: alertAt, color: '#8430ce' });
  // A change that is the cause is drawn once, as the cause, with the change's summary.
  const causeChange = plot?.cause ? plot.changes.find((c) => c.at === plot.cause!.at) : undefined;
  if (plot?.cause) markers.push({ label: 'cause', at: plot.cause.at, color: '#b3261e', detail: causeChange ? withLocalTimes(causeChange.summary) : undefined });
  for (const change of plot?.changes ?? [])
    if (change.at !== plot?.cause?.at) markers.push({ label: 'change', at: change.at, color: '#137333', detail: withLocalTimes(change.summary) });
  const what: Record<string, string> = {
    onset: 'Onset: the condition began (as the conclusion states)',
    alert: 'The first alert began',
    cause: "The cause's time",
    change: 'A change examined',
  };
  return (
    <section aria-labelledby="evidence-heading">
      <h2 id="evidence-heading">Evidence</h2>
      <Show loaded={loaded}>
        {(views) => {
          const byOrdinal = new Map(views.map((view) => [view.ordinal, view]));
          const runOf = (n: number) => (v.runs ?? []).find((r) => r.ordinal === n);
          const panels: ReactNode[] = [];
          if (chosen !== null && chosen !== symptomRun && chosen !== causeRun && byOrdinal.has(chosen))
            panels.push(
              <PlotPanel
                key="chosen"
                id={`plot-run-${chosen}`}
                title={`Run #${chosen}`}
                view={byOrdinal.get(chosen)!}
                run={runOf(chosen)}
                markers={markers}
                prometheus={prometheus}
              />,
            );
          if (symptomRun !== null && byOrdinal.has(symptomRun)) {
            const { comparison, threshold } = plot!.symptom!;
            const view = byOrdinal.get(symptomRun)!;
            panels.push(
              <PlotPanel
                key="symptom"
                id={`plot-run-${symptomRun}`}
                title={`Symptom: run #${symptomRun}`}
                note={
                  threshold !== null && comparison
                    ? `The alert fires while this is ${comparison} ${formatValue(threshold, unitOf(view.query))} (the dotted line).`
                    : "The alert's condition: values only while it held."
                }
                view={view}
                run={runOf(symptomRun)}
                markers={markers}
                threshold={threshold}
                prometheus={prometheus}
              />,
            );
          }
          if (causeRun !== null && byOrdinal.has(causeRun))
            panels.push(
              <PlotPanel
                key="cause"
                id={`plot-run-${causeRun}`}
                title={`The cause's own series: run #${causeRun}`}
                view={byOrdinal.get(causeRun)!}
                run={runOf(causeRun)}
                markers={markers}
                prometheus={prometheus}
              />,
            );
          if (!plot && cited.length) {
            // A conclusion nothing dates: the cited range query with the most samples, marked at the first sample of the series the cause names.
            const samples = (view: Schemas['RunSeriesView']) => view.series.reduce((n, x) => n + x.values.filter((y) => y !== null).length, 0);
            const best = views.filter((x) => cited.includes(x.ordinal)).sort((a, b) => samples(b) - samples(a))[0];
            const named = best.series.filter((x) =>
              Object.entries(x.metric).some(([k, value]) => !['__name__', 'job', 'instance'].includes(k) && cause!.statement.includes(`${k}="${value}"`)),
            );
            const first = (named.length ? named : best.series).flatMap((x) => x.times.filter((_, i) => x.values[i] !== null)).sort()[0];
            if (first) markers.push({ label: 'cause', at: first, color: '#b3261e' });
            panels.push(
              <PlotPanel
                key="cited"
                id={`plot-run-${best.ordinal}`}
                title={`The cause's evidence: run #${best.ordinal}`}
                view={best}
                run={runOf(best.ordinal)}
                markers={markers}
                prometheus={prometheus}
              />,
            );
          }
          const reference = alertAt ?? plot?.onsetAt ?? null;
          return (
            <>
              {panels}
              {markers.length ? (
                <>
                  <h3>Marked times ({zoneLabel()})</h3>
                  <ul aria-label="Marked times">
                    {markers.map((m, i) => (
                      <li key={i}>
                        {what[m.label]}
                        {m.detail ? ` (${m.detail})` : ''}: {formatTime(m.at)}
                        {reference && m.label !== 'alert' ? ` (${formatRelative(m.at, reference, alertAt ? 'the alert' : 'the onset')})` : ''}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </>
          );
        }}
      </Show>
    </section>
  );
}

/** A run's query, with a link to it in Prometheus when the run's integration has a base URL. */
function RunQuery({ run, prometheus }: { run: Run; prometheus: Map<string, string> }) {
  const query = queryOf(run);
  if (!query) return null;
  const link = prometheusLink(prometheus, run);
  return (
    <div className="query">
      <code>{query}</code>{' '}
      {link ? (
        <a href={link} aria-label={`Open in Prometheus (run #${run.ordinal})`}>
          Open in Prometheus
        </a>
      ) : null}
    </div>
  );
}

const STATUS_TEXT: Record<string, string> = {
  new: 'new: began at the onset',
  more: 'more often',
  fewer: 'less often',
  gone: 'stopped',
  steady: 'as before',
};

/** A run's log templates (loki.log_patterns), loaded when opened: a table with counts before and after the onset and each one's minutes around it. */
function LogTemplates({ investigationId, ordinal }: { investigationId: string; ordinal: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Log templates of run #{ordinal}</summary>
      {open ? <LogTemplatesTable investigationId={investigationId} ordinal={ordinal} /> : null}
    </details>
  );
}

function LogTemplatesTable({ investigationId, ordinal }: { investigationId: string; ordinal: number }) {
  const [loaded] = useLoad(
    () => api.GET('/api/v1/investigations/{investigation}/runs/{ordinal}/templates', { params: { path: { investigation: investigationId, ordinal } } }),
    [investigationId, ordinal],
  );
  const zone = zoneLabel();
  return (
    <Show loaded={loaded}>
      {(view) =>
        view.templates.length ? (
          <div className="table-scroll">
            <table aria-label={`Log templates of run #${ordinal}`}>
              <thead>
                <tr>
                  <th scope="col">Template</th>
                  <th scope="col">Since the onset</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                  <th scope="col">Per minute, 10 min each side of the onset</th>
                  <th scope="col">First seen ({zone})</th>
                </tr>
              </thead>
              <tbody>
                {view.templates.map((t, i) => (
                  <tr key={i}>
                    <td>
                      <code>{t.template}</code>
                      {Object.keys(t.labels).length ? (
                        <div>
                          {Object.entries(t.labels)
                            .map(([k, v]) => `${k}=${v}`)
                            .join(', ')}
                        </div>
                      ) : null}
                    </td>
                    <td>{STATUS_TEXT[t.status] ?? t.status}</td>
                    <td>
                      {t.before}
                      {t.beforePerMinute !== null ? ` (${t.beforePerMinute}/min)` : ''}
                    </td>
                    <td>
                      {t.after}
                      {t.afterPerMinute !== null ? ` (${t.afterPerMinute}/min)` : ''}
                    </td>
                    <td>
                      <Sparkline counts={t.perMinuteAroundOnset} />
                    </td>
                    <td>{t.firstSeen ? formatTime(t.firstSeen) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {view.more ? <p>{view.more} more templates are not listed (the run lists 30, new ones first).</p> : null}
          </div>
        ) : (
          <p className="empty">No templates.</p>
        )
      }
    </Show>
  );
}

/** Lines per minute as bars, the onset's minute (the middle one) marked. */
function Sparkline({ counts }: { counts: number[] }) {
  const max = Math.max(1, ...counts);
  const onset = Math.floor(counts.length / 2);
  const [w, h] = [4, 20];
  return (
    <svg
      className="sparkline"
      width={counts.length * w}
      height={h + 2}
      role="img"
      aria-label={`Lines per minute: ${counts.slice(0, onset).join(', ')} before the onset; ${counts.slice(onset).join(', ')} from its minute`}
    >
      <line x1={onset * w + w / 2} x2={onset * w + w / 2} y1={0} y2={h + 2} stroke="#b06000" strokeDasharray="2 2" />
      {counts.map((n, i) => {
        const bar = n ? Math.max(1, Math.round((n / max) * h)) : 0;
        return <rect key={i} x={i * w + 0.5} y={h + 1 - bar} width={w - 1} height={bar} fill={i < onset ? '#5f6368' : '#b3261e'} />;
      })}
    </svg>
  );
}
