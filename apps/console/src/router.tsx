import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from 'react';

const listeners = new Set<() => void>();

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const listener of listeners) listener();
}

/** The current path and query, updated on navigation and on the browser's back and forward. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/** `pattern` like `/incidents/:id`: the parameters when `path` matches, else null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const re = new RegExp(`^${pattern.replace(/:(\w+)/g, (_m, name: string) => (names.push(name), '([^/]+)'))}/?$`);
  const found = re.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
}

export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={onClick} {...props} />;
}

/**
 * The current page's query with `patch` applied (an empty value removes a key), as a new history
 * entry. A filter that changes starts again from the first page: the cursor goes unless patched.
 */
export function updateQuery(patch: Record<string, string | undefined>): void {
  const query = new URLSearchParams(location.search);
  if (!('cursor' in patch)) query.delete('cursor');
  for (const [key, value] of Object.entries(patch)) {
    if (value) query.set(key, value);
    else query.delete(key);
  }
  const search = query.toString();
  navigate(`${location.pathname}${search ? `?${search}` : ''}`);
}
