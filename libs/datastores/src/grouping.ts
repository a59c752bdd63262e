import { MAX_ROWS } from './datastore.types';

/** How many items share each key, most first (ties by key). */
export function countBy<T>(items: T[], key: (item: T) => string): Array<{ key: string; count: number }> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()].map(([k, count]) => ({ key: k, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** Counted groups as a read reports them, the key under its name (`{application: "checkout", count: 3}`), at most MAX_ROWS. */
export const named =
  (label: string) =>
  (groups: Array<{ key: string; count: number }>): Array<{ [name: string]: string | number; count: number }> =>
    groups.slice(0, MAX_ROWS).map(({ key, count }) => ({ [label]: key, count }));
