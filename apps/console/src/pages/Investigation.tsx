import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { api, organizationPath, type Schemas } from '../api/client';
import { formatTime, withLocalTimes } from '../clock';
import { Link } from '../router';
import { useCan } from '../session';
import { ConfirmButton, ErrorMessage, Show, Status, time, useAction, useLoad, useTitle } from '../ui';
import type { Marker } from './SeriesPlot';

const SeriesPlot = lazy(() => import('./SeriesPlot'));
const RANGE_TOOL = 'prometheus.query_range';

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
          <Evidence investigation={v} chosen={plotted} />
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
                    {r.tool === RANGE_TOOL && r.outcome === 'succeeded' ? (
                      <>
                        {' '}
                        <button type="button" className="secondary" onClick={() => setPlotted(r.ordinal)}>
                          Plot run #{r.ordinal}
                        </button>
                      </>
                    ) : null}
                    {r.summary ? <div>{withLocalTimes(r.summary)}</div> : null}
                    {r.error ? <div className="error">{r.error}</div> : null}
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

/**
 * The plot of one run's series: the run chosen in the list, else, of the range queries the cause
 * finding cites, the one with the most samples, else the first range query that succeeded. The
 * onset (the incident's opening) and the cause's time (the first sample of the cited series that
 * carry a label value the cause names, else of every cited series) are marked.
 */
function Evidence({ investigation: v, chosen }: { investigation: Schemas['InvestigationView']; chosen: number | null }) {
  const runs = useMemo(() => (v.runs ?? []).filter((r) => r.tool === RANGE_TOOL && r.outcome === 'succeeded'), [v.runs]);
  const cause = v.findings.find((f) => f.kind === 'cause');
  const cited = useMemo(() => runs.filter((r) => cause?.runRefs.includes(r.ordinal)).map((r) => r.ordinal), [runs, cause]);
  const wanted = chosen ?? (cited.length ? null : (runs[0]?.ordinal ?? null));
  const ordinals = [...new Set([...cited, ...(wanted ? [wanted] : [])])];
  const [incident] = useLoad(
    () =>
      v.incidentId
        ? api.GET('/api/v1/incidents/{incident}', { params: { path: { incident: v.incidentId } } })
        : Promise.resolve({ data: null, response: new Response() }),
    [v.incidentId],
  );
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
  if (!ordinals.length) return null;
  return (
    <section aria-labelledby="plot-heading">
      <Show loaded={loaded}>
        {(views) => {
          const samples = (view: Schemas['RunSeriesView']) => view.series.reduce((n, s) => n + s.values.filter((x) => x !== null).length, 0);
          const citedViews = views.filter((view) => cited.includes(view.ordinal));
          const view = views.find((x) => x.ordinal === wanted) ?? [...citedViews].sort((a, b) => samples(b) - samples(a))[0];
          if (!view) return null;
          const run = runs.find((r) => r.ordinal === view.ordinal);
          const markers: Marker[] = [];
          if (incident.state === 'ready' && incident.data) markers.push({ label: 'onset', at: incident.data.openedAt, color: '#b06000' });
          // The cause's own series (a label value the cause names, like version="1.1.0") when there are some, else every cited one.
          const citedSeries = citedViews.flatMap((c) => c.series);
          const named = citedSeries.filter((s) =>
            Object.entries(s.metric).some(([k, value]) => !['__name__', 'job', 'instance'].includes(k) && cause!.statement.includes(`${k}="${value}"`)),
          );
          const causeTimes = (named.length ? named : citedSeries).flatMap((s) => s.times.filter((_, i) => s.values[i] !== null)).sort();
          if (causeTimes[0]) markers.push({ label: 'cause', at: causeTimes[0], color: '#b3261e' });
          return (
            <>
              <h2 id="plot-heading">Evidence plot: run #{view.ordinal}</h2>
              <p>
                <code>{view.query}</code>
              </p>
              <Suspense fallback={<p role="status">Loading the chart…</p>}>
                <SeriesPlot view={view} markers={markers} from={run?.windowFrom ?? null} until={run?.windowUntil ?? null} />
              </Suspense>
              <ul aria-label="Marked times">
                {markers.map((m) => (
                  <li key={m.label}>
                    {m.label === 'onset' ? 'Onset (the incident opened)' : 'Cause (the first sample of the series the cause finding cites)'}: {time(m.at)}
                  </li>
                ))}
              </ul>
            </>
          );
        }}
      </Show>
    </section>
  );
}
