import { type FormEvent, lazy, Suspense, useState } from 'react';
import { api, currentOrganization } from '../api/client';
import { Pager, useCursor } from '../paging';
import { Link, navigate } from '../router';
import { useCan } from '../session';
import { ErrorMessage, Show, Status, time, useAction, useLoad, useTitle } from '../ui';
import { useInvestigationStream } from './Investigation';

const PAGE_SIZE = 50;

/** The Markdown renderer of answers, a chunk of its own loaded when a conversation is shown. */
const AnswerText = lazy(() => import('../answer').then((m) => ({ default: m.AnswerText })));

/** Conversations, newest first, and opening one with a first question. */
export function ConversationsPage() {
  useTitle('Conversations');
  const can = useCan();
  const cursor = useCursor();
  const [list] = useLoad(() => api.GET('/api/v1/conversations', { params: { query: { limit: PAGE_SIZE, cursor } } }), [cursor], 10_000);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, busy, run] = useAction();
  const open = async (event: FormEvent) => {
    event.preventDefault();
    let id: string | undefined;
    const ok = await run(async () => {
      const answer = await api.POST('/api/v1/conversations', { body: { subject, message } });
      id = answer.data?.id;
      return answer;
    });
    if (ok && id) navigate(`/conversations/${id}`);
  };
  return (
    <>
      <h1>Conversations</h1>
      {can('conversations:write') ? (
        <section aria-labelledby="new-conversation">
          <h2 id="new-conversation">Ask a question</h2>
          <form onSubmit={open}>
            <label>
              Subject
              <input value={subject} onChange={(e) => setSubject(e.target.value)} required maxLength={512} />
            </label>
            <label>
              Question
              <textarea value={message} onChange={(e) => setMessage(e.target.value)} required maxLength={8192} rows={3} />
            </label>
            <button type="submit" disabled={busy}>
              Start conversation
            </button>
            <ErrorMessage message={error} />
          </form>
        </section>
      ) : null}
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <>
            <ul>
              {d.items.map((c) => (
                <li key={c.id}>
                  <Link to={`/conversations/${c.id}`}>{c.subject}</Link> · {c.source} · last activity {time(c.lastActivityAt)}
                </li>
              ))}
            </ul>
            <Pager next={d.next} shown={d.items.length} size={PAGE_SIZE} noun="Conversations" />
          </>
        )}
      </Show>
    </>
  );
}

/** A conversation as a chat: messages, the running turn streaming in, and a question waiting for an answer. */
export function ConversationPage({ id }: { id: string }) {
  const can = useCan();
  // Read again every few seconds too: a turn's answer is appended by the worker shortly after the turn ends.
  const [conversation, reload] = useLoad(() => api.GET('/api/v1/conversations/{conversation}', { params: { path: { conversation: id } } }), [id], 3_000);
  const [turns, reloadTurns] = useLoad(
    () =>
      api.GET('/api/v1/conversations/{conversation}/turns', {
        params: { path: { conversation: id }, query: { limit: 200 }, header: { 'X-Svc-Organization': currentOrganization() ?? '' } },
      }),
    [id],
    3_000,
  );
  const [text, setText] = useState('');
  const [error, busy, run] = useAction();
  useTitle(conversation.state === 'ready' ? conversation.data.subject : 'Conversation');
  const lastTurn = turns.state === 'ready' ? turns.data.turns.at(-1) : undefined;
  const running = lastTurn && ['queued', 'investigating'].includes(lastTurn.status) ? lastTurn : undefined;
  const lastMessage = conversation.state === 'ready' ? conversation.data.messages.at(-1) : undefined;
  // A question waits for its answer once the turn ended asking and its question is the last message.
  const waiting = lastTurn?.status === 'needs_input' && lastMessage?.role === 'assistant';

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api.POST('/api/v1/conversations/{conversation}/messages', { params: { path: { conversation: id } }, body: { message: text } }))) {
      setText('');
      reload();
      reloadTurns();
    }
  };
  return (
    <Show loaded={conversation}>
      {(c) => (
        <>
          <h1>{c.subject}</h1>
          {c.incidentId ? (
            <p>
              About <Link to={`/incidents/${c.incidentId}`}>an incident</Link>
            </p>
          ) : null}
          <div className="chat" aria-label="Messages" role="log">
            {c.messages.map((m, i) => {
              const question = waiting && m.role === 'assistant' && i === c.messages.length - 1;
              return (
                <div key={m.sequence} className={`bubble ${m.role}${question ? ' question' : ''}`}>
                  <div>
                    <strong>{question ? `${m.authorName} asks you:` : m.authorName}</strong> <small>{time(m.createdAt)}</small>
                  </div>
                  {m.role === 'assistant' ? (
                    <Suspense fallback={<p className="asked">{m.text}</p>}>
                      <AnswerText text={m.text} investigationId={m.investigationId} />
                    </Suspense>
                  ) : (
                    <p className="asked">{m.text}</p>
                  )}
                  {m.investigationId && m.role === 'assistant' ? (
                    <div>
                      <Link to={`/investigations/${m.investigationId}`}>How this was answered</Link>
                    </div>
                  ) : null}
                </div>
              );
            })}
            {running ? (
              <RunningTurn
                key={running.investigationId}
                investigationId={running.investigationId}
                onEnd={() => {
                  reload();
                  reloadTurns();
                }}
              />
            ) : null}
          </div>
          {can('conversations:write') ? (
            <form onSubmit={send}>
              <label>
                {waiting ? 'Your answer to the question' : 'Message'}
                <textarea value={text} onChange={(e) => setText(e.target.value)} required maxLength={8192} rows={3} />
              </label>
              <button type="submit" disabled={busy}>
                Send
              </button>
              <ErrorMessage message={error} />
            </form>
          ) : null}
        </>
      )}
    </Show>
  );
}

function RunningTurn({ investigationId, onEnd }: { investigationId: string; onEnd: () => void }) {
  const { events } = useInvestigationStream(investigationId, (event) => {
    if (['concluded', 'failed', 'cancelled'].includes(event.type)) onEnd();
  });
  const last = events.at(-1);
  return (
    <div className="bubble assistant" role="status" aria-live="polite">
      <Status value="investigating" />{' '}
      {last ? `${last.type}: ${String(last.data?.message ?? last.data?.summary ?? last.data?.tool ?? '')}` : 'Waiting for the turn to start…'}
      <div>
        <Link to={`/investigations/${investigationId}`}>Follow this turn</Link>
      </div>
    </div>
  );
}
