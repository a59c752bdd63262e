import { type FormEvent, type ReactNode, useState } from 'react';
import { api, organizationPath, type Schemas } from '../api/client';
import { Link } from '../router';
import { withLocalTimes } from '../clock';
import { useCan } from '../session';
import { ConfirmButton, ErrorMessage, Show, Status, time, useAction, useLoad, useTitle } from '../ui';

const NEEDS_INPUT = 'Needs human input.';
type Postmortem = Schemas['PostmortemView'];
type TextField = 'title' | 'executiveSummary' | 'impact' | 'detection' | 'resolution';
type ListField = 'whatWentWell' | 'whatWentWrong' | 'detectionGaps' | 'openQuestions';
const TEXT_FIELDS: Array<[TextField, string]> = [
  ['title', 'Title'],
  ['executiveSummary', 'Executive summary'],
  ['impact', 'Impact'],
  ['detection', 'Detection'],
  ['resolution', 'Resolution'],
];
const LIST_FIELDS: Array<[ListField, string]> = [
  ['whatWentWell', 'What went well'],
  ['whatWentWrong', 'What went wrong'],
  ['detectionGaps', 'Detection gaps'],
  ['openQuestions', 'Open questions'],
];

/** Text with every `Needs human input.` highlighted. */
function Marked({ text }: { text: string }) {
  const parts = withLocalTimes(text).split(NEEDS_INPUT);
  const out: ReactNode[] = [];
  parts.forEach((part, i) => {
    if (i)
      out.push(
        <mark key={`m${i}`} className="needs-input">
          {NEEDS_INPUT}
        </mark>,
      );
    if (part) out.push(part);
  });
  return <>{out}</>;
}

/** The fields that still say `Needs human input.`, by their labels, in the document's order. */
function needingInput(p: Postmortem): string[] {
  const structured: Array<[keyof Postmortem, string]> = [
    ['timeline', 'Timeline'],
    ['rootCauses', 'Root causes'],
    ['contributingFactors', 'Contributing factors'],
    ['actionItems', 'Action items'],
  ];
  return [...TEXT_FIELDS, ...LIST_FIELDS, ...structured].filter(([field]) => JSON.stringify(p[field] ?? '').includes(NEEDS_INPUT)).map(([, label]) => label);
}

/** What marking the postmortem reviewed means, naming what still needs a person. */
function reviewConsequence(p: Postmortem): string {
  const open = needingInput(p);
  return `${open.length ? `${open.join(', ')} still ${open.length === 1 ? 'says' : 'say'} "${NEEDS_INPUT}" ` : 'Nothing is left marked as needing human input. '}The postmortem will be marked reviewed by you at revision ${p.revision}.`;
}

/** The incident's postmortem: the document, corrections (only the corrected field, with If-Match), regenerate and review. */
export function PostmortemPage({ incidentId }: { incidentId: string }) {
  const can = useCan();
  const path = { params: { path: { incident: incidentId } } };
  const [postmortem, reload] = useLoad(() => api.GET('/api/v1/incidents/{incident}/postmortem', path), [incidentId]);
  // Regenerating needs the incident resolved (a merge of firing alerts reopens it).
  const [incident] = useLoad(() => api.GET('/api/v1/incidents/{incident}', path), [incidentId]);
  const resolved = incident.state === 'ready' && incident.data.status === 'resolved';
  useTitle(incident.state === 'ready' ? `Postmortem of ${incident.data.headline}` : 'Postmortem');
  const [error, busy, run] = useAction();
  const write = can('postmortems:write');
  const act = async (work: () => Promise<{ error?: unknown; response: Response }>) => {
    if (await run(work)) reload();
  };
  const ifMatch = (p: Postmortem) => ({ 'If-Match': `"${p.revision}"` });

  if (postmortem.state === 'error' && /not found|no postmortem/i.test(postmortem.message))
    return (
      <>
        <h1>Postmortem</h1>
        <p className="empty">This incident has no postmortem yet.</p>
        {write ? (
          <button type="button" disabled={busy} onClick={() => void act(() => api.POST('/api/v1/incidents/{incident}/postmortem', { ...path, body: {} }))}>
            Write the first draft
          </button>
        ) : null}
        <ErrorMessage message={error} />
      </>
    );
  return (
    <Show loaded={postmortem}>
      {(p) => (
        <>
          <h1>
            {/^postmortem\b/i.test(p.title) ? null : 'Postmortem: '}
            <Marked text={p.title} />
          </h1>
          <p>
            <Status value={p.status} /> revision {p.revision} · updated {time(p.updatedAt)} · <Link to={`/incidents/${incidentId}`}>incident</Link> ·{' '}
            <a href={organizationPath(`/api/v1/incidents/${incidentId}/postmortem/report`)} download={`postmortem-${incidentId}.md`}>
              Markdown
            </a>
          </p>
          {write ? (
            <p>
              {p.status === 'draft' && resolved ? (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void act(() => api.POST('/api/v1/incidents/{incident}/postmortem/regenerate', { ...path, headers: ifMatch(p) }))}
                >
                  Regenerate from the records
                </button>
              ) : (
                <small>
                  {p.status === 'reviewed'
                    ? 'A reviewed postmortem is regenerated once a correction returns it to draft.'
                    : 'Regenerating waits for the incident to be resolved again.'}
                </small>
              )}{' '}
              {p.status === 'draft' ? (
                <ConfirmButton
                  label="Mark reviewed"
                  consequence={reviewConsequence(p)}
                  confirm="Mark it reviewed"
                  className="secondary"
                  disabled={busy}
                  onConfirm={() => void act(() => api.POST('/api/v1/incidents/{incident}/postmortem/review', path))}
                />
              ) : null}
            </p>
          ) : null}
          <ErrorMessage message={error} />
          {TEXT_FIELDS.map(([field, label]) => (
            <Field
              key={field}
              label={label}
              corrected={p.correctedFields.includes(field)}
              text={p[field]}
              editable={write}
              multiline={field !== 'title'}
              onSave={(value) => act(() => api.PATCH('/api/v1/incidents/{incident}/postmortem', { ...path, headers: ifMatch(p), body: { [field]: value } }))}
            />
          ))}
          {LIST_FIELDS.map(([field, label]) => (
            <Field
              key={field}
              label={label}
              corrected={p.correctedFields.includes(field)}
              list={p[field]}
              editable={write}
              multiline
              onSave={(value) =>
                act(() =>
                  api.PATCH('/api/v1/incidents/{incident}/postmortem', {
                    ...path,
                    headers: ifMatch(p),
                    body: {
                      [field]: value
                        .split('\n')
                        .map((l) => l.trim())
                        .filter(Boolean),
                    },
                  }),
                )
              }
            />
          ))}
          <section aria-labelledby="root-causes">
            <h2 id="root-causes">Root causes</h2>
            <ul>
              {p.rootCauses.map((c, i) => (
                <li key={i}>
                  <Marked text={c.statement} />
                </li>
              ))}
            </ul>
            <h2>Contributing factors</h2>
            {p.contributingFactors.length ? (
              <ul>
                {p.contributingFactors.map((c, i) => (
                  <li key={i}>
                    <Marked text={c.statement} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="empty">None recorded.</p>
            )}
          </section>
          <section aria-labelledby="timeline">
            <h2 id="timeline">Timeline</h2>
            <ol>
              {p.timeline.map((t, i) => (
                <li key={i}>
                  {time(t.at)} — <Marked text={t.description} />
                </li>
              ))}
            </ol>
          </section>
          <section aria-labelledby="action-items">
            <h2 id="action-items">Action items</h2>
            <ul>
              {p.actionItems.map((a, i) => (
                <li key={i}>
                  <Marked text={a.title} /> · owner <Marked text={a.owner} /> · by <Marked text={a.deadline} />
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </Show>
  );
}

function Field(props: {
  label: string;
  corrected: boolean;
  text?: string;
  list?: string[];
  editable: boolean;
  multiline: boolean;
  onSave: (value: string) => Promise<void>;
}) {
  const { label, corrected, text, list, editable, onSave } = props;
  const [editing, setEditing] = useState(false);
  const current = text ?? (list ?? []).join('\n');
  const [value, setValue] = useState(current);
  const id = `field-${label.replace(/\W+/g, '-').toLowerCase()}`;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    await onSave(value);
    setEditing(false);
  };
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {label} {corrected ? <span className="status">corrected by a person</span> : null}
      </h2>
      {editing ? (
        <form onSubmit={save}>
          <label>
            {list ? `${label} (one entry a line)` : label}
            <textarea value={value} onChange={(e) => setValue(e.target.value)} rows={list ? 5 : 3} required={!list} />
          </label>
          <button type="submit">Save {label.toLowerCase()}</button>{' '}
          <button type="button" className="secondary" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <>
          {list ? (
            list.length ? (
              <ul>
                {list.map((l, i) => (
                  <li key={i}>
                    <Marked text={l} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="empty">None.</p>
            )
          ) : (
            <p>
              <Marked text={current} />
            </p>
          )}
          {editable ? (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setValue(current);
                setEditing(true);
              }}
            >
              Correct {label.toLowerCase()}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
