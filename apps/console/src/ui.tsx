import { type DependencyList, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { errorText } from './api/client';
import { formatTime } from './clock';

/** What an openapi-fetch call resolves to. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** `stale`: a refresh failed, so `data` is what the last successful read returned. */
export type Loaded<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T; stale?: string };

/**
 * Loads `call` when `deps` change (and on `reload`, and every `refreshMs` when given), keeping the
 * last data shown while a refresh runs. What was loaded for other `deps` (the page before, another
 * filter) is not shown as theirs: until the new answer arrives the state is `loading`, so nothing
 * acts on the old page's data (a "Next page" following the cursor of the page already left).
 */
export function useLoad<T>(call: () => Promise<Answer<T>>, deps: DependencyList, refreshMs?: number): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<{ value: Loaded<T>; deps: DependencyList }>({ value: { state: 'loading' }, deps });
  const [tick, setTick] = useState(0);
  const callRef = useRef(call);
  callRef.current = call;
  useEffect(() => {
    let live = true;
    const set = (value: (last: Loaded<T>) => Loaded<T>) =>
      setLoaded((last) => ({ value: value(sameDeps(last.deps, deps) ? last.value : { state: 'loading' }), deps }));
    // A failed refresh keeps what was shown, with the error beside it.
    const fail = (message: string) => set((last) => (last.state === 'ready' ? { ...last, stale: message } : { state: 'error', message }));
    const run = async () => {
      try {
        const { data, error, response } = await callRef.current();
        if (!live) return;
        if (error !== undefined || data === undefined) fail(errorText(error, response));
        else set(() => ({ state: 'ready', data }));
      } catch (error) {
        if (live) fail(errorText(error));
      }
    };
    void run();
    const timer = refreshMs ? setInterval(run, refreshMs) : undefined;
    return () => {
      live = false;
      if (timer) clearInterval(timer);
    };
  }, [...deps, tick, refreshMs]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return [sameDeps(loaded.deps, deps) ? loaded.value : { state: 'loading' }, reload];
}

function sameDeps(a: DependencyList, b: DependencyList): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

/** Loading, error and empty states around `children(data)`. */
export function Show<T>({ loaded, empty, children }: { loaded: Loaded<T>; empty?: (data: T) => boolean; children: (data: T) => ReactNode }) {
  if (loaded.state === 'loading') return <p role="status">Loading…</p>;
  if (loaded.state === 'error') return <ErrorMessage message={loaded.message} />;
  const stale = loaded.stale ? <ErrorMessage message={`Could not refresh: ${loaded.stale}`} /> : null;
  if (empty?.(loaded.data))
    return (
      <>
        {stale}
        <p className="empty">Nothing here yet.</p>
      </>
    );
  return (
    <>
      {stale}
      {children(loaded.data)}
    </>
  );
}

export function ErrorMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

/** Runs an action, keeping its error (the contract's message) to show. */
export function useAction(): [string | null, boolean, (work: () => Promise<Answer<unknown>>) => Promise<boolean>] {
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<Answer<unknown>>) => {
    setBusy(true);
    setMessage(null);
    try {
      const { error, response } = await work();
      if (error !== undefined || !response.ok) {
        setMessage(errorText(error, response));
        return false;
      }
      return true;
    } catch (error) {
      setMessage(errorText(error));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return [message, busy, run];
}

/** An instant from the API in the chosen zone, the zone named (see clock.ts). */
export const time = (value: string | null | undefined): string => formatTime(value);

/** The page's title in the browser's tab and history: "<what> · Incident Investigation". */
export function useTitle(what: string | null | undefined): void {
  useEffect(() => {
    document.title = what ? `${what} · Incident Investigation` : 'Incident Investigation';
  }, [what]);
}

export function Labels({ labels }: { labels: Record<string, string> }) {
  return (
    <span className="labels">
      {Object.entries(labels).map(([k, v]) => (
        <code key={k}>
          {k}={v}
        </code>
      ))}
    </span>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value.replace(/_/g, ' ')}</span>;
}

/**
 * A button for an action that cannot be undone, or that others feel at once: it asks first, in a
 * modal dialog that says what will happen, and acts only on `confirm`; Escape or "Keep it" leaves
 * everything as it was.
 */
export function ConfirmButton({
  label,
  consequence,
  confirm,
  onConfirm,
  className = 'danger',
  disabled,
}: {
  /** The button's text, and the dialog's title with a question mark. */
  label: string;
  /** What will happen, in a sentence or two. */
  consequence: string;
  /** The confirming button's text ("Rotate the secret"). */
  confirm: string;
  onConfirm: () => void;
  className?: string;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useId();
  // The dialog's content exists only while it is open: a closed dialog holds no text to find.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
  }, [open]);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={title} className="confirm" onClose={() => setOpen(false)}>
        {open ? (
          <>
            <h2 id={title}>{label}?</h2>
            <p>{consequence}</p>
            <button
              type="button"
              className="danger"
              onClick={() => {
                dialog.current?.close();
                onConfirm();
              }}
            >
              {confirm}
            </button>{' '}
            <button type="button" className="secondary" autoFocus onClick={() => dialog.current?.close()}>
              Keep it
            </button>
          </>
        ) : null}
      </dialog>
    </>
  );
}
