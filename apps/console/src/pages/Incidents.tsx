import { type FormEvent, useState } from 'react';
import { api } from '../api/client';
import { Link, navigate } from '../router';
import { useCan } from '../session';
import { ErrorMessage, Labels, Show, Status, time, useAction, useLoad } from '../ui';

type IncidentStatus = 'open' | 'resolved' | 'merged';

/** datetime-local value (local time) to an RFC 3339 instant; empty when unset. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The incidents, newest first, with status and time filters, refreshed every few seconds. */
export function IncidentsPage() {
  const [status, setStatus] = useState<IncidentStatus | ''>('');
  const [from, setFrom] = useState('');
  const [until, setUntil] = useState('');
  const [incidents] = useLoad(
    () => api.GET('/api/v1/incidents', { params: { query: { status: status || undefined, from: instant(from), until: instant(until), limit: 100 } } }),
    [status, from, until],
    5_000,
  );
  return (
    <>
      <h1>Incidents</h1>
      <form className="inline" aria-label="Filter incidents" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as IncidentStatus | '')}>
            <option value="">Any</option>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="merged">Merged</option>
          </select>
        </label>
        <label>
          Opened from
          <input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          Opened before
          <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </label>
      </form>
      <Show loaded={incidents} empty={(d) => d.items.length === 0}>
        {(d) => (
          <table aria-label="Incidents">
            <thead>
              <tr>
                <th scope="col">Incident</th>
                <th scope="col">Status</th>
                <th scope="col">Labels</th>
                <th scope="col">Alerts</th>
                <th scope="col">Opened</th>
              </tr>
            </thead>
            <tbody>
              {d.items.map((i) => (
                <tr key={i.id}>
                  <td>
                    <Link to={`/incidents/${i.id}`}>{i.title}</Link>
                  </td>
                  <td>
                    <Status value={i.status} />
                  </td>
                  <td>
                    <Labels labels={i.labels} />
                  </td>
                  <td>{i.alertCount}</td>
                  <td>{time(i.openedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}

/** One incident: its alert timeline, its investigations, merge, and opening an investigation. */
export function IncidentPage({ id }: { id: string }) {
  const can = useCan();
  const path = { params: { path: { incident: id } } };
  const [incident, reloadIncident] = useLoad(() => api.GET('/api/v1/incidents/{incident}', path), [id], 10_000);
  const [alerts] = useLoad(
    () => api.GET('/api/v1/incidents/{incident}/alert-events', { params: { path: { incident: id }, query: { limit: 200 } } }),
    [id],
    10_000,
  );
  const [investigations] = useLoad(() => api.GET('/api/v1/investigations', { params: { query: { incidentId: id, limit: 50 } } }), [id], 10_000);
  const [openError, opening, runOpen] = useAction();
  const [mergeError, merging, runMerge] = useAction();
  const [sources, setSources] = useState('');

  const open = async () => {
    let created: string | undefined;
    const ok = await runOpen(async () => {
      const answer = await api.POST('/api/v1/investigations', { body: { incidentId: id } });
      created = answer.data?.id;
      return answer;
    });
    if (ok && created) navigate(`/investigations/${created}`);
  };
  const merge = async (event: FormEvent) => {
    event.preventDefault();
    const incidentIds = sources.split(/[\s,]+/).filter(Boolean);
    if (await runMerge(() => api.POST('/api/v1/incidents/{incident}/merge', { ...path, body: { incidentIds } }))) {
      setSources('');
      reloadIncident();
    }
  };

  return (
    <Show loaded={incident}>
      {(i) => (
        <>
          <h1>{i.title}</h1>
          <p>
            <Status value={i.status} /> opened {time(i.openedAt)}
            {i.resolvedAt ? `, resolved ${time(i.resolvedAt)}` : ''} · <Labels labels={i.labels} />
            {i.mergedInto ? (
              <>
                {' '}
                · merged into <Link to={`/incidents/${i.mergedInto}`}>{i.mergedInto}</Link>
              </>
            ) : null}
          </p>
          <p>
            {can('investigations:open') ? (
              <button type="button" onClick={() => void open()} disabled={opening}>
                Open investigation
              </button>
            ) : null}{' '}
            {i.status === 'resolved' ? <Link to={`/incidents/${id}/postmortem`}>Postmortem</Link> : null}
          </p>
          <ErrorMessage message={openError} />
          <AskAboutIncident incidentId={id} title={i.title} />
          <section aria-labelledby="investigations-heading">
            <h2 id="investigations-heading">Investigations</h2>
            <Show loaded={investigations} empty={(d) => d.items.length === 0}>
              {(d) => (
                <ul>
                  {d.items.map((v) => (
                    <li key={v.id}>
                      <Link to={`/investigations/${v.id}`}>{v.subject}</Link> <Status value={v.status} /> {time(v.createdAt)}
                    </li>
                  ))}
                </ul>
              )}
            </Show>
          </section>
          <section aria-labelledby="alerts-heading">
            <h2 id="alerts-heading">Alert timeline</h2>
            <Show loaded={alerts} empty={(d) => d.items.length === 0}>
              {(d) => (
                <ol>
                  {d.items.map((a) => (
                    <li key={a.id}>
                      <Status value={a.status} /> {a.annotations.summary ?? a.labels.alertname ?? a.fingerprint} · starts {time(a.startsAt)}
                      {a.endsAt ? `, ends ${time(a.endsAt)}` : ''} · received {time(a.receivedAt)} <Labels labels={a.labels} />
                    </li>
                  ))}
                </ol>
              )}
            </Show>
          </section>
          {can('incidents:merge') && i.status !== 'merged' ? (
            <section aria-labelledby="merge-heading">
              <h2 id="merge-heading">Merge incidents into this one</h2>
              <form className="inline" onSubmit={merge}>
                <label>
                  Incident ids (comma separated)
                  <input value={sources} onChange={(e) => setSources(e.target.value)} required size={60} />
                </label>
                <button type="submit" disabled={merging}>
                  Merge
                </button>
              </form>
              <ErrorMessage message={mergeError} />
            </section>
          ) : null}
        </>
      )}
    </Show>
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
              placeholder="When did it start? What changed? Which pods run the new version?"
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
