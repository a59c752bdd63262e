import { updateQuery, useLocation } from './router';

/**
 * Keyset pages in the URL: `cursor` names the page shown (none: the first). The API's cursors only
 * lead forward, so the way back is remembered in this tab: each cursor followed is stored with the
 * cursor of the page it was followed from and its page number. A page opened from a shared link
 * does not know its number; "Previous" then leads to the first page.
 */
const KEY = 'svc.pages';
type Memory = Record<string, { previous: string; number: number | null }>;

function memory(): Memory {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Memory;
  } catch {
    return {};
  }
}

function remember(cursor: string, entry: Memory[string]): void {
  const all = memory();
  all[cursor] = entry;
  // Cursors are long: keep the last few hundred followed.
  const kept = Object.entries(all).slice(-300);
  try {
    sessionStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Without storage, "Previous" leads to the first page.
  }
}

/** The cursor of the page the URL names, for the listing's request. */
export function useCursor(): string | undefined {
  return useLocation().query.get('cursor') ?? undefined;
}

/** "Incidents 51–100 of 230 · Previous · Next" under a listing. */
export function Pager({ next, shown, size, noun, total }: { next: string | null; shown: number; size: number; noun: string; total?: number }) {
  const cursor = useCursor() ?? '';
  const known = cursor ? memory()[cursor] : { previous: '', number: 1 };
  const number = known?.number ?? null;
  const range = number && shown ? `${noun} ${(number - 1) * size + 1}–${(number - 1) * size + shown}` : `${shown} ${noun.toLowerCase()}`;
  const go = (target: string) => {
    updateQuery({ cursor: target || undefined });
    window.scrollTo(0, 0);
  };
  if (!cursor && !next) return total !== undefined && total > 0 ? <p className="pager">{`${total} ${noun.toLowerCase()}`}</p> : null;
  return (
    <nav className="pager" aria-label={`Pages of ${noun.toLowerCase()}`}>
      <span>
        {range}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      <button type="button" className="secondary" disabled={!cursor} onClick={() => go(known?.previous ?? '')}>
        {known ? 'Previous page' : 'First page'}
      </button>
      <button
        type="button"
        className="secondary"
        disabled={!next}
        onClick={() => {
          remember(next!, { previous: cursor, number: number ? number + 1 : null });
          go(next!);
        }}
      >
        Next page
      </button>
    </nav>
  );
}
