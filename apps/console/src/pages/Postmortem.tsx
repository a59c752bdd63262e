import { type FormEvent, type ReactNode, useState } from 'react';
import { api, errorText, organizationPath, type Schemas } from '../api/client';
import { Link } from '../router';
import { fromInput, toInput, withLocalTimes, zoneLabel } from '../clock';
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
const STATEMENT_FIELDS: Array<['rootCauses' | 'contributingFactors', string]> = [
  ['rootCauses', 'Root causes'],
  ['contributingFactors', 'Contributing factors'],
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
  /**
   * One correction, sent with If-Match naming the revision shown: null when saved; else the
   * problem, after reading the postmortem again when someone else saved meanwhile (412), so the
   * field can show their version beside what was typed and the next save names the new revision.
   */
  const save = async (p: Postmortem, body: Schemas['CorrectPostmortemDto']): Promise<string | null> => {
    try {
      const answer = await api.PATCH('/api/v1/incidents/{incident}/postmortem', { ...path, headers: ifMatch(p), body });
      if (answer.response.ok) {
        reload();
        return null;
      }
      if (answer.response.status === 412) {
        reload();
        return `${errorText(answer.error, answer.response)}. What you typed is kept: save again to apply it to the new revision.`;
      }
      return errorText(answer.error, answer.response);
    } catch (failure) {
      return errorText(failure);
    }
  };

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
            <Editable
              key={field}
              label={label}
              corrected={p.correctedFields.includes(field)}
              current={p[field]}
              editable={write}
              view={(text) => (
                <p>
                  <Marked text={text} />
                </p>
              )}
              editor={(draft, set) => (
                <label>
                  {label}
                  {field === 'title' ? (
                    <input value={draft} onChange={(e) => set(e.target.value)} required maxLength={1024} />
                  ) : (
                    <textarea value={draft} onChange={(e) => set(e.target.value)} rows={4} required maxLength={32768} />
                  )}
                </label>
              )}
              onSave={(value) => save(p, { [field]: value })}
            />
          ))}
          {LIST_FIELDS.map(([field, label]) => (
            <Editable
              key={field}
              label={label}
              corrected={p.correctedFields.includes(field)}
              current={p[field].join('\n')}
              editable={write}
              view={(text) => <Lines lines={text ? text.split('\n') : []} />}
              editor={(draft, set) => (
                <label>
                  {label} (one entry a line)
                  <textarea value={draft} onChange={(e) => set(e.target.value)} rows={5} />
                </label>
              )}
              onSave={(value) =>
                save(p, {
                  [field]: value
                    .split('\n')
                    .map((l) => l.trim())
                    .filter(Boolean),
                })
              }
            />
          ))}
          {STATEMENT_FIELDS.map(([field, label]) => (
            <Editable
              key={field}
              label={label}
              corrected={p.correctedFields.includes(field)}
              current={p[field].map(({ statement, runRefs, investigationId }) => ({ statement, runRefs, investigationId }))}
              editable={write}
              view={(entries) => <Lines lines={entries.map((e) => e.statement)} />}
              editor={(draft, set) => (
                <Rows
                  noun={label === 'Root causes' ? 'root cause' : 'contributing factor'}
                  rows={draft}
                  set={set}
                  blank={{ statement: '', runRefs: [], investigationId: null }}
                  fields={[{ key: 'statement', label: 'Statement', multiline: true }]}
                />
              )}
              onSave={(entries) => save(p, { [field]: entries.map(({ statement, ...rest }) => ({ statement, ...citations(rest) })) })}
            />
          ))}
          <Editable
            label="Timeline"
            corrected={p.correctedFields.includes('timeline')}
            current={p.timeline.map(({ at, description, runRefs, investigationId }) => ({
              at: toInput(at),
              original: at,
              description,
              runRefs,
              investigationId,
            }))}
            editable={write}
            view={(entries) => (
              <Listed
                items={entries}
                ordered
                show={(t) => (
                  <>
                    {time(t.original)} — <Marked text={t.description} />
                  </>
                )}
              />
            )}
            editor={(draft, set) => (
              <Rows
                noun="timeline entry"
                rows={draft}
                set={set}
                blank={{ at: '', original: '', description: '', runRefs: [], investigationId: null }}
                fields={[
                  { key: 'at', label: `When (${zoneLabel()})`, type: 'datetime-local' },
                  { key: 'description', label: 'What happened', multiline: true },
                ]}
              />
            )}
            onSave={(entries) =>
              save(p, {
                timeline: entries.map(({ at, original, description, runRefs, investigationId }) => ({
                  // An entry whose time was not touched keeps it to the microsecond.
                  at: original && at === toInput(original) ? original : (fromInput(at) ?? at),
                  description,
                  ...citations({ runRefs, investigationId }),
                })),
              })
            }
          />
          <Editable
            label="Action items"
            corrected={p.correctedFields.includes('actionItems')}
            current={p.actionItems.map(({ title, owner, deadline, verification, runRefs, investigationId }) => ({
              title,
              owner,
              deadline,
              verification,
              runRefs,
              investigationId,
            }))}
            editable={write}
            view={(items) => (
              <Listed
                items={items}
                show={(a) => (
                  <>
                    <Marked text={a.title} /> · owner <Marked text={a.owner} /> · by <Marked text={a.deadline} /> · verify: <Marked text={a.verification} />
                  </>
                )}
              />
            )}
            editor={(draft, set) => (
              <Rows
                noun="action item"
                rows={draft}
                set={set}
                blank={{ title: '', owner: '', deadline: '', verification: '', runRefs: [], investigationId: null }}
                fields={[
                  { key: 'title', label: 'Action' },
                  { key: 'owner', label: 'Owner' },
                  { key: 'deadline', label: 'Deadline' },
                  { key: 'verification', label: 'How to verify it', multiline: true },
                ]}
              />
            )}
            onSave={(items) =>
              save(p, {
                actionItems: items.map(({ title, owner, deadline, verification, runRefs, investigationId }) => ({
                  title,
                  owner,
                  deadline,
                  verification,
                  ...citations({ runRefs, investigationId }),
                })),
              })
            }
          />
        </>
      )}
    </Show>
  );
}

/** An entry's citations as a correction sends them: kept when it has them, none for an entry a person wrote. */
function citations({ runRefs, investigationId }: { runRefs: number[]; investigationId: string | null }): { runRefs?: number[]; investigationId?: string } {
  return investigationId ? { runRefs, investigationId } : {};
}

/** A field's entries as a list, each shown by `show`; "None." when there are none. */
function Listed<T>({ items, ordered = false, show }: { items: T[]; ordered?: boolean; show: (item: T) => ReactNode }) {
  if (!items.length) return <p className="empty">None.</p>;
  const entries = items.map((item, i) => <li key={i}>{show(item)}</li>);
  return ordered ? <ol>{entries}</ol> : <ul>{entries}</ul>;
}

function Lines({ lines }: { lines: string[] }) {
  return <Listed items={lines} show={(l) => <Marked text={l} />} />;
}

/**
 * A postmortem field shown, and corrected in place. While a person edits, what they typed is
 * theirs: a failed save keeps it, and when the field changed underneath (someone else saved, so the
 * save was refused with 412 and the page read the new revision), the other version is shown beside
 * it, to take or to merge by hand before saving again over the new revision.
 */
function Editable<T>(props: {
  label: string;
  corrected: boolean;
  current: T;
  editable: boolean;
  view: (value: T) => ReactNode;
  editor: (draft: T, set: (value: T) => void) => ReactNode;
  onSave: (value: T) => Promise<string | null>;
}) {
  const { label, corrected, current, editable, view, editor, onSave } = props;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(current);
  // What the field said when editing began, or when the person last took the other version into account.
  const [base, setBase] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = `field-${label.replace(/\W+/g, '-').toLowerCase()}`;
  const changedMeanwhile = editing && JSON.stringify(base) !== JSON.stringify(current);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const failed = await onSave(draft);
    setSaving(false);
    setProblem(failed);
    if (!failed) setEditing(false);
  };
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {label} {corrected ? <span className="status">corrected by a person</span> : null}
      </h2>
      {editing ? (
        <form onSubmit={save} aria-label={`Correct ${label.toLowerCase()}`}>
          {changedMeanwhile ? (
            <div className="conflict" role="group" aria-label={`${label} as saved meanwhile`}>
              <p>
                <strong>Someone else changed {label.toLowerCase()} while you were editing.</strong> Their version is below; yours is kept in the form. Merge
                what you need from theirs, then save.
              </p>
              {view(current)}
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setDraft(current);
                  setBase(current);
                }}
              >
                Use their version
              </button>{' '}
              <button type="button" className="secondary" onClick={() => setBase(current)}>
                Keep mine
              </button>
            </div>
          ) : null}
          {editor(draft, setDraft)}
          <ErrorMessage message={problem} />
          <button type="submit" disabled={saving}>
            Save {label.toLowerCase()}
          </button>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setEditing(false);
              setProblem(null);
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <>
          {view(current)}
          {editable ? (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setDraft(current);
                setBase(current);
                setProblem(null);
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

/** Rows of entries edited in place: each field of each row labelled with its row, rows added and removed. */
function Rows<R extends Record<string, unknown>>({
  noun,
  rows,
  set,
  blank,
  fields,
}: {
  noun: string;
  rows: R[];
  set: (rows: R[]) => void;
  blank: R;
  fields: Array<{ key: keyof R & string; label: string; multiline?: boolean; type?: string }>;
}) {
  const update = (index: number, key: string, value: string) => set(rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)));
  return (
    <div className="rows">
      {rows.map((row, index) => (
        <fieldset key={index} className="row">
          <legend>
            {noun[0].toUpperCase() + noun.slice(1)} {index + 1}
          </legend>
          {fields.map((f) => (
            <label key={f.key}>
              {f.label}
              {f.multiline ? (
                <textarea value={String(row[f.key] ?? '')} onChange={(e) => update(index, f.key, e.target.value)} rows={2} required maxLength={8192} />
              ) : (
                <input
                  type={f.type ?? 'text'}
                  value={String(row[f.key] ?? '')}
                  onChange={(e) => update(index, f.key, e.target.value)}
                  required
                  maxLength={8192}
                />
              )}
            </label>
          ))}
          <button type="button" className="secondary" onClick={() => set(rows.filter((_, i) => i !== index))}>
            Remove {noun} {index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className="secondary" onClick={() => set([...rows, { ...blank }])}>
        Add {noun === 'action item' ? 'an' : 'a'} {noun}
      </button>
    </div>
  );
}
