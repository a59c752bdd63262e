import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { api, type Schemas } from '../api/client';
import { formatDuration, formatRelative, fromInput, instantOf, toInput, withLocalTimes, zoneLabel } from '../clock';
import { Pager, useCursor } from '../paging';
import { Link, navigate, updateQuery, useLocation } from '../router';
import { useCan } from '../session';
import { type Answer, ConfirmButton, ErrorMessage, Labels, type Loaded, Show, Status, time, useAction, useLoad, useTitle } from '../ui';

type Incident = Schemas['IncidentView'];
type Investigation = Schemas['InvestigationView'];
type IncidentStatus = Incident['status'];
type Change = Schemas['ChangeView'];

const PAGE_SIZE = 50;
/** The changes of an incident shown on its timeline: the oldest of its window. */
const CHANGES_SHOWN = 200;

/** How long it lasted: opened to resolved, or to now while open. */
function duration(i: Incident): string {
  const opened = instantOf(i.openedAt)?.getTime() ?? Date.now();
  const ended = instantOf(i.resolvedAt)?.getTime() ?? Date.now();
  return `${formatDuration(ended - opened)}${i.status === 'open' ? ' so far' : ''}`;
}

export function Severity({ value }: { value: string | null }) {
  if (!value) return <span className="empty">—</span>;
  const level = ['critical', 'emergency', 'fatal', 'page', 'p1', 'sev1', 'high', 'p2', 'sev2', 'error', 'major'].includes(value.toLowerCase())
    ? 'high'
    : ['warning', 'warn', 'medium', 'p3', 'sev3'].includes(value.toLowerCase())
      ? 'medium'
      : 'low';
  return <span className={`severity severity-${level}`}>{value}</span>;
}

/** Where an incident is: its service and namespace, as one line. */
function place(i: Incident): string {
  return [i.service, i.namespace ? `namespace ${i.namespace}` : null].filter(Boolean).join(' · ');
}

/** The newest investigation (not a conversation turn) of each incident on the page, by incident. */
function useLatestInvestigations(incidentIds: string[]) {
  const key = incidentIds.join(',');
  const [loaded] = useLoad(
    () =>
      key
        ? api.GET('/api/v1/investigations', { params: { query: { incidentIds: key, kind: 'investigation', limit: 100 } } })
        : Promise.resolve({ data: { items: [] as Investigation[], next: null, total: 0 }, response: new Response() }),
    [key],
    10_000,
  );
  // Null until read, so a row does not say "Not investigated" before it knows.
  return useMemo(() => {
    if (loaded.state !== 'ready') return null;
    const latest = new Map<string, Investigation>();
    for (const v of loaded.data.items) if (v.incidentId && !latest.has(v.incidentId)) latest.set(v.incidentId, v);
    return latest;
  }, [loaded]);
}

/** An investigation's state in a few words and its cause, for a list or the top of a page. */
function ConclusionLine({ investigation: v }: { investigation: Investigation | undefined }) {
  if (!v) return <span className="empty">Not investigated</span>;
  const cause = v.findings.find((f) => f.kind === 'cause')?.statement ?? v.summary;
  return (
    <>
      <Status value={v.conclusionStatus ?? v.status} /> {cause ? <span className="clamp">{withLocalTimes(cause)}</span> : null}
    </>
  );
}

/**
 * The incidents, newest first, for triage: each named by its most telling alert, with severity,
 * service, how long it lasted, its alerts and what its investigation concluded. Filters, order and
 * page are in the URL, so a view can be shared and survives a reload.
 */
export function IncidentsPage() {
  useTitle('Incidents');
  const { query } = useLocation();
  const status = (query.get('status') ?? '') as IncidentStatus | '';
  const from = query.get('from') ?? undefined;
  const until = query.get('until') ?? undefined;
  const order = query.get('order') === 'oldest' ? 'oldest' : undefined;
  const cursor = useCursor();
  const [incidents] = useLoad(
    () => api.GET('/api/v1/incidents', { params: { query: { status: status || undefined, from, until, order, cursor, limit: PAGE_SIZE } } }),
    [status, from, until, order, cursor],
    5_000,
  );
  const ids = incidents.state === 'ready' ? incidents.data.items.map((i) => i.id) : [];
  const latest = useLatestInvestigations(ids);
  const zone = zoneLabel();
  return (
    <>
      <h1>Incidents</h1>
      <form className="inline" aria-label="Filter incidents" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => updateQuery({ status: e.target.value })}>
            <option value="">Any</option>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="merged">Merged</option>
          </select>
        </label>
        <label>
          Opened from ({zone})
          <input type="datetime-local" value={toInput(from)} onChange={(e) => updateQuery({ from: fromInput(e.target.value) })} />
        </label>
        <label>
          Opened before ({zone})
          <input type="datetime-local" value={toInput(until)} onChange={(e) => updateQuery({ until: fromInput(e.target.value) })} />
        </label>
        <label>
          Order
          <select value={order ?? 'newest'} onChange={(e) => updateQuery({ order: e.target.value === 'oldest' ? 'oldest' : undefined })}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </label>
      </form>
      <Show loaded={incidents} empty={(d) => d.items.length === 0}>
        {(d) => (
          <>
            <table aria-label="Incidents" className="cards">
              <thead>
                <tr>
                  <th scope="col">Incident</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Opened ({zone})</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Alerts</th>
                  <th scope="col">Conclusion</th>
                </tr>
              </thead>
              <tbody>
                {d.items.map((i) => (
                  <tr key={i.id}>
                    <td data-label="Incident">
                      <Link to={`/incidents/${i.id}`}>{i.headline}</Link>
                      <div className="meta">
                        <Status value={i.status} /> {place(i)}
                      </div>
                    </td>
                    <td data-label="Severity">
                      <Severity value={i.severity} />
                    </td>
                    <td data-label="Opened">{time(i.openedAt)}</td>
                    <td data-label="Duration">{duration(i)}</td>
                    <td data-label="Alerts">{i.alertCount}</td>
                    <td data-label="Conclusion">{latest ? <ConclusionLine investigation={latest.get(i.id)} /> : <span className="empty">…</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={d.next} shown={d.items.length} size={PAGE_SIZE} noun="Incidents" />
          </>
        )}
      </Show>
    </>
  );
}

type TimelineEntry = { at: string; key: string; what: ReactNode; className?: string };

/** An incident's changes (the first page) and how many of its window were left out. */
type IncidentChanges = Schemas['IncidentChangePage'];
type KubernetesEvent = Schemas['SnapshotEventView'];

/** The Kubernetes events read when the incident opened; none when no snapshot was taken (404). */
async function readKubernetesEvents(incident: string): Promise<Answer<KubernetesEvent[]>> {
  const answer = await api.GET('/api/v1/incidents/{incident}/kubernetes-snapshot', { params: { path: { incident } } });
  if (answer.response.status === 404) return { data: [], response: answer.response };
  return answer.data ? { data: answer.data.events, response: answer.response } : { error: answer.error, response: answer.response };
}

/** The changes around an incident: the oldest 200 of its window, with the count of them all. */
function readIncidentChanges(incident: string): Promise<Answer<IncidentChanges>> {
  return api.GET('/api/v1/incidents/{incident}/changes', { params: { path: { incident }, query: { limit: CHANGES_SHOWN } } });
}

/** A change's kind as people say it. */
const CHANGE_KINDS: Record<Change['kind'], string> = {
  deploy: 'deploy',
  config: 'configuration',
  feature_flag: 'feature flag',
  migration: 'migration',
  infrastructure: 'infrastructure',
  release: 'release',
  code: 'code',
  other: 'other',
};

/** Only web links are followed (the API gives no others). */
const isWebLink = (href: string) => /^https?:\/\//i.test(href);

/** A change on the timeline: its kind and summary, then where, who, which versions, and its links. */
function ChangeEntry({ change: c, examined }: { change: Change; examined: boolean }) {
  const version =
    c.versionBefore && c.versionAfter
      ? `version ${c.versionBefore} → ${c.versionAfter}`
      : c.versionAfter
        ? `to version ${c.versionAfter}`
        : c.versionBefore
          ? `from version ${c.versionBefore}`
          : null;
  // A rollout an investigation saw in the metrics was not reported: it links to the investigation that saw it.
  const facts = [c.service, c.environment, c.author ? `by ${c.author}` : null, version, c.investigationId ? null : `reported through ${c.source}`].filter(
    Boolean,
  );
  const links = c.links.filter((l) => isWebLink(l.href));
  return (
    <>
      <Status value="change" /> <span className="change-kind">{CHANGE_KINDS[c.kind] ?? c.kind}</span>: {withLocalTimes(c.summary)}
      <div className="meta">
        {facts.join(' · ')}
        {c.investigationId ? (
          <>
            {' · '}
            <Link to={`/investigations/${c.investigationId}`}>
              seen in {c.source === 'kubernetes' ? 'kube-state-metrics' : 'its build series'} by an investigation
            </Link>
          </>
        ) : null}
        {examined ? ' · examined as a possible cause by the newest investigation' : ''}
        {links.length ? (
          <>
            {' · '}
            {links.map((l, i) => (
              <span key={`${i}-${l.href}`}>
                {i ? ', ' : ''}
                <a href={l.href} target="_blank" rel="noopener noreferrer">
                  {l.text ?? l.href}
                </a>
              </span>
            ))}
          </>
        ) : null}
      </div>
    </>
  );
}

/**
 * The incident's alerts' phases, the changes reported around it, the other changes its newest
 * investigation examined, and its investigations' steps, in time order.
 */
function timeline(alerts: Schemas['AlertEventView'][], investigations: Investigation[], changes: Change[], kubernetes: KubernetesEvent[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  // The events of the pods and workloads the alerts name, as the Kubernetes API showed them when the incident opened.
  for (const [i, e] of kubernetes.entries()) {
    const at = e.firstTime ?? e.lastTime;
    if (!at) continue;
    entries.push({
      at,
      key: `kubernetes-${i}`,
      className: 'kubernetes',
      what: (
        <>
          <Status value={e.type === 'Warning' ? 'warning' : 'event'} /> Kubernetes {e.reason ?? 'event'} on {e.object}
          {e.count > 1 ? ` ×${e.count}` : ''}
          {e.message ? `: ${e.message}` : ''}
          <div className="meta">{e.lastTime && e.lastTime !== at ? `last ${time(e.lastTime)} · ` : ''}read from the cluster when the incident opened</div>
        </>
      ),
    });
  }
  const instant = (at: string) => instantOf(at)?.getTime() ?? 0;
  const examined = investigations[0]?.plot?.changes ?? [];
  // An examined change is a recorded one when it names it (or, in plots that name none, when it is at the same instant).
  const examinedIds = new Set(examined.map((c) => c.changeId).filter(Boolean));
  const examinedAt = new Set(examined.filter((c) => !c.changeId).map((c) => instant(c.at)));
  const isExamined = (c: Change) => examinedIds.has(c.id) || examinedAt.has(instant(c.occurredAt));
  for (const c of changes)
    entries.push({
      at: c.occurredAt,
      key: `change-${c.id}`,
      className: 'change',
      what: <ChangeEntry change={c} examined={isExamined(c)} />,
    });
  const reportedIds = new Set(changes.map((c) => c.id));
  const reportedAt = new Set(changes.map((c) => instant(c.occurredAt)));
  for (const a of alerts) {
    const name = a.labels.alertname ?? a.fingerprint;
    const summary = a.annotations.summary ? `: ${a.annotations.summary}` : '';
    if (a.status === 'firing')
      entries.push({
        at: a.startsAt,
        key: `${a.id}-firing`,
        what: (
          <>
            <Status value="firing" /> {name}
            {summary} <Labels labels={a.labels} />
          </>
        ),
      });
    else
      entries.push({
        at: a.endsAt ?? a.receivedAt,
        key: `${a.id}-resolved`,
        what: (
          <>
            <Status value="resolved" /> {name}
          </>
        ),
      });
  }
  // The changes the newest investigation examined near the onset (a new version, a restart, a configuration edit),
  // but for those recorded (reported, or a rollout recorded from the metrics), shown above with what their record says.
  for (const [i, change] of examined.entries()) {
    if (change.changeId ? reportedIds.has(change.changeId) : reportedAt.has(instant(change.at))) continue;
    entries.push({
      at: change.at,
      key: `examined-${i}`,
      className: 'change',
      what: (
        <>
          <Status value="change" /> {withLocalTimes(change.summary)}
        </>
      ),
    });
  }
  for (const v of investigations) {
    entries.push({
      at: v.createdAt,
      key: `${v.id}-opened`,
      what: (
        <>
          Investigation opened: <Link to={`/investigations/${v.id}`}>{v.subject}</Link>
        </>
      ),
    });
    if (v.concludedAt)
      entries.push({
        at: v.concludedAt,
        key: `${v.id}-ended`,
        what: (
          <>
            Investigation ended <Status value={v.conclusionStatus ?? v.status} />
          </>
        ),
      });
  }
  return entries.sort((a, b) => instant(a.at) - instant(b.at));
}

/** What the timeline says of the incident's changes: which were chosen, those left out, or that they could not be read. */
function ChangesNote({ loaded }: { loaded: Loaded<IncidentChanges> }) {
  if (loaded.state === 'loading') return null;
  if (loaded.state === 'error') return <p className="meta">The changes around this incident could not be read ({loaded.message}).</p>;
  const { items, next, window, services, dependencies, total, totalCapped } = loaded.data;
  const leftOut = total - items.length;
  const called = dependencies.length ? `, what ${services.length === 1 ? 'it calls' : 'they call'} (${dependencies.join(', ')})` : '';
  const which = `for ${services.length ? `${services.join(', ')}${called} (or naming no service)` : 'any service'} from ${time(window.from)}${window.until ? ` to ${time(window.until)}` : ''}`;
  const left =
    next === null
      ? ''
      : leftOut === 0
        ? ` Only the first ${items.length} are shown: later ones were left out.`
        : ` Only the first ${items.length} are shown: ${totalCapped ? 'more than ' : ''}${leftOut} later change${leftOut === 1 && !totalCapped ? ' was' : 's were'} left out.`;
  return (
    <>
      {loaded.stale ? <p className="meta">The changes could not be read again ({loaded.stale}): those shown may be out of date.</p> : null}
      <p className="meta">{items.length ? `Changes shown: those recorded ${which}.${left}` : `No change was recorded ${which}.`}</p>
    </>
  );
}

/**
 * One incident: what its newest investigation concluded and the first action it proposes at the
 * top, then its timeline, its investigations, questions about it, and merging others into it.
 */
export function IncidentPage({ id }: { id: string }) {
  const can = useCan();
  const path = { params: { path: { incident: id } } };
  const [incident, reloadIncident] = useLoad(() => api.GET('/api/v1/incidents/{incident}', path), [id], 10_000);
  const [alerts] = useLoad(
    () => api.GET('/api/v1/incidents/{incident}/alert-events', { params: { path: { incident: id }, query: { limit: 200 } } }),
    [id],
    10_000,
  );
  const [investigations] = useLoad(
    () => api.GET('/api/v1/investigations', { params: { query: { incidentId: id, kind: 'investigation', limit: 50 } } }),
    [id],
    10_000,
  );
  // Changes are shown beside the alerts; when they cannot be read, the rest of the page is the same.
  const [changes] = useLoad(() => readIncidentChanges(id), [id], 10_000);
  // So are the Kubernetes events read when it opened.
  const [kubernetes] = useLoad(() => readKubernetesEvents(id), [id], 10_000);
  const [openError, opening, runOpen] = useAction();
  useTitle(incident.state === 'ready' ? incident.data.headline : 'Incident');

  const open = async () => {
    let created: string | undefined;
    const ok = await runOpen(async () => {
      const answer = await api.POST('/api/v1/investigations', { body: { incidentId: id } });
      created = answer.data?.id;
      return answer;
    });
    if (ok && created) navigate(`/investigations/${created}`);
  };

  return (
    <Show loaded={incident}>
      {(i) => {
        const events = alerts.state === 'ready' ? alerts.data.items : [];
        const runs = investigations.state === 'ready' ? investigations.data.items : [];
        const reported = changes.state === 'ready' ? changes.data.items : [];
        const kubernetesEvents = kubernetes.state === 'ready' ? kubernetes.data : [];
        const firstAlert = events.map((a) => a.startsAt).sort((a, b) => (instantOf(a)?.getTime() ?? 0) - (instantOf(b)?.getTime() ?? 0))[0] ?? i.openedAt;
        return (
          <>
            <h1>{i.headline}</h1>
            <p className="meta">
              <Status value={i.status} /> <Severity value={i.severity} /> {place(i)} · opened {time(i.openedAt)}
              {i.resolvedAt ? `, resolved ${time(i.resolvedAt)}` : ''} · {duration(i)} · {i.alertCount} alert{i.alertCount === 1 ? '' : 's'}
              {i.mergedInto ? (
                <>
                  {' '}
                  · merged into <Link to={`/incidents/${i.mergedInto}`}>another incident</Link>
                </>
              ) : null}
            </p>
            {i.title !== i.headline ? <p className="meta">First alert: {i.title}</p> : null}
            <p>
              {can('investigations:open') ? (
                <button type="button" onClick={() => void open()} disabled={opening}>
                  Open investigation
                </button>
              ) : null}{' '}
              {i.status === 'resolved' ? <Link to={`/incidents/${id}/postmortem`}>Postmortem</Link> : null}
            </p>
            <ErrorMessage message={openError} />
            <IncidentConclusion investigation={runs[0]} loaded={investigations.state === 'ready'} />
            <section aria-labelledby="timeline-heading">
              <h2 id="timeline-heading">Timeline ({zoneLabel()})</h2>
              <Show loaded={alerts} empty={(d) => d.items.length === 0 && reported.length === 0}>
                {() => (
                  <ol className="timeline">
                    {timeline(events, runs, reported, kubernetesEvents).map((e) => (
                      <li key={e.key} className={e.className}>
                        <span className="when">
                          {time(e.at)} <small>{formatRelative(e.at, firstAlert, 'the first alert')}</small>
                        </span>{' '}
                        {e.what}
                      </li>
                    ))}
                  </ol>
                )}
              </Show>
              <ChangesNote loaded={changes} />
            </section>
            <section aria-labelledby="investigations-heading">
              <h2 id="investigations-heading">Investigations</h2>
              <Show loaded={investigations} empty={(d) => d.items.length === 0}>
                {(d) => (
                  <ul>
                    {d.items.map((v) => (
                      <li key={v.id}>
                        <Link to={`/investigations/${v.id}`}>{v.subject}</Link> <Status value={v.conclusionStatus ?? v.status} /> {time(v.createdAt)}
                      </li>
                    ))}
                  </ul>
                )}
              </Show>
            </section>
            <AskAboutIncident incidentId={id} title={i.headline} />
            {can('incidents:merge') && i.status !== 'merged' ? <MergeIncidents target={i} onMerged={reloadIncident} /> : null}
          </>
        );
      }}
    </Show>
  );
}

/** The newest investigation's conclusion, its cause and the first action it proposes. */
function IncidentConclusion({ investigation: v, loaded }: { investigation: Investigation | undefined; loaded: boolean }) {
  if (!loaded) return null;
  const action = v?.actions[0];
  return (
    <section aria-labelledby="conclusion-heading" className="conclusion">
      <h2 id="conclusion-heading">Conclusion</h2>
      {!v ? (
        <p className="empty">No investigation yet: open one to find the cause.</p>
      ) : (
        <>
          {v.summary ? (
            <p>
              <Status value={v.conclusionStatus ?? v.status} /> {withLocalTimes(v.summary)}
            </p>
          ) : (
            <p>
              <ConclusionLine investigation={v} />
            </p>
          )}
          {action ? (
            <p>
              <strong>Next action:</strong> {action.title} <span className="status">needs confirmation</span> — {withLocalTimes(action.rationale)}
            </p>
          ) : null}
          <p>
            <Link to={`/investigations/${v.id}`}>The investigation, with its evidence</Link>
          </p>
        </>
      )}
    </section>
  );
}

/** Merging other incidents into this one, picked from the Organization's incidents that are not merged. */
function MergeIncidents({ target, onMerged }: { target: Incident; onMerged: () => void }) {
  const [candidates, reload] = useLoad(() => api.GET('/api/v1/incidents', { params: { query: { limit: 50 } } }), [target.id]);
  const [picked, setPicked] = useState<string[]>([]);
  const [error, merging, run] = useAction();
  const others = candidates.state === 'ready' ? candidates.data.items.filter((c) => c.id !== target.id && c.status !== 'merged') : [];
  const merge = async () => {
    if (await run(() => api.POST('/api/v1/incidents/{incident}/merge', { params: { path: { incident: target.id } }, body: { incidentIds: picked } }))) {
      setPicked([]);
      reload();
      onMerged();
    }
  };
  return (
    <section aria-labelledby="merge-heading">
      <h2 id="merge-heading">Merge incidents into this one</h2>
      {others.length === 0 ? (
        <p className="empty">No other incident to merge.</p>
      ) : (
        <fieldset className="pick">
          <legend>Incidents to merge (the 50 newest that are not merged)</legend>
          {others.map((c) => (
            <label key={c.id} className="check">
              <input
                type="checkbox"
                checked={picked.includes(c.id)}
                onChange={(e) => setPicked((list) => (e.target.checked ? [...list, c.id] : list.filter((x) => x !== c.id)))}
              />
              <span>
                {c.headline} <Severity value={c.severity} /> <Status value={c.status} /> <small>opened {time(c.openedAt)}</small>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {others.length === 0 ? null : (
        <ConfirmButton
          label={`Merge ${picked.length} incident${picked.length === 1 ? '' : 's'} into this one`}
          consequence="Their alerts move into this incident and they are marked merged into it; a merge cannot be undone."
          confirm="Merge them"
          className="primary"
          disabled={merging || picked.length === 0}
          onConfirm={() => void merge()}
        />
      )}
      <ErrorMessage message={error} />
    </section>
  );
}

/** Questions about an incident: its conversations, and a new one asked from here. */
function AskAboutIncident({ incidentId, title }: { incidentId: string; title: string }) {
  const can = useCan();
  const [conversations] = useLoad(() => api.GET('/api/v1/conversations', { params: { query: { incidentId, limit: 20 } } }), [incidentId], 10_000);
  const [question, setQuestion] = useState('');
  const [error, busy, run] = useAction();
  const ask = async (event: FormEvent) => {
    event.preventDefault();
    let created: string | undefined;
    const ok = await run(async () => {
      const answer = await api.POST('/api/v1/conversations', { body: { subject: title.slice(0, 512), incidentId, message: question } });
      created = answer.data?.id;
      return answer;
    });
    if (ok && created) navigate(`/conversations/${created}`);
  };
  return (
    <section aria-labelledby="ask-heading">
      <h2 id="ask-heading">Ask about this incident</h2>
      {can('conversations:write') ? (
        <form onSubmit={ask}>
          <label>
            Question about this incident
            <textarea
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              required
              maxLength={8192}
              rows={2}
              placeholder="When did it begin? What changed? Which pods run the new version?"
            />
          </label>
          <button type="submit" disabled={busy}>
            Ask
          </button>
          <ErrorMessage message={error} />
        </form>
      ) : null}
      <Show loaded={conversations} empty={(d) => d.items.length === 0}>
        {(d) => (
          <ul aria-label="Conversations about this incident">
            {d.items.map((c) => (
              <li key={c.id}>
                <Link to={`/conversations/${c.id}`}>{c.subject}</Link> · last activity {time(c.lastActivityAt)}
              </li>
            ))}
          </ul>
        )}
      </Show>
    </section>
  );
}
