import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { Timestamp } from '../time/timestamp';
import { CursorBinding, CursorCodec } from './cursor-codec';

export interface KeysetColumn<T> {
  /** SQL expression, e.g. `s.issued_at`. */
  expression: string;
  /** How to read the key from a loaded entity. */
  read: (row: T) => string | number | Timestamp;
  /** Whether the key is a Timestamp (cursors carry it as text). */
  timestamp?: boolean;
}

export interface KeysetOrdering<T> {
  name: string;
  direction: 'ASC' | 'DESC';
  /** Columns that together are unique; the last is normally the id. */
  columns: KeysetColumn<T>[];
}

/**
 * The usual ordering: a timestamp column, then the id to break ties (both unique together).
 * `alias` is the query's alias, `column` the timestamp's SQL name.
 */
export function byTimeThenId<T extends { id: string }>(
  alias: string,
  column: string,
  read: (row: T) => Timestamp,
  direction: 'ASC' | 'DESC',
): KeysetOrdering<T> {
  return {
    name: column,
    direction,
    columns: [
      { expression: `${alias}.${column}`, read, timestamp: true },
      { expression: `${alias}.id`, read: (row) => row.id },
    ],
  };
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;

/**
 * One keyset page of a query: WHERE (keys) > (cursor position) ORDER BY keys LIMIT n+1, so the
 * cost of a page does not depend on its depth. The query must not be ordered already.
 */
export async function keysetPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  codec: CursorCodec,
  binding: Omit<CursorBinding, 'ordering'>,
  ordering: KeysetOrdering<T>,
  request: PageRequest,
): Promise<Page<T>> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const fullBinding: CursorBinding = { ...binding, ordering: `${ordering.name}:${ordering.direction}` };
  if (request.cursor !== undefined) {
    const position = codec.decode(fullBinding, request.cursor);
    if (position.length !== ordering.columns.length) throw new Error('cursor arity mismatch');
    const params: Record<string, unknown> = {};
    const lhs = ordering.columns.map((c) => c.expression).join(', ');
    const rhs = ordering.columns
      .map((c, i) => {
        params[`__k${i}`] = c.timestamp ? Timestamp.parse(String(position[i])) : position[i];
        return `:__k${i}`;
      })
      .join(', ');
    const op = ordering.direction === 'ASC' ? '>' : '<';
    query.andWhere(new Brackets((qb) => qb.where(`(${lhs}) ${op} (${rhs})`, params)));
  }
  ordering.columns.forEach((c, i) => (i === 0 ? query.orderBy(c.expression, ordering.direction) : query.addOrderBy(c.expression, ordering.direction)));
  const rows = await query
    .take(undefined)
    .limit(limit + 1)
    .getMany();
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const next =
    rows.length > limit && last
      ? codec.encode(
          fullBinding,
          ordering.columns.map((c) => {
            const value = c.read(last);
            return value instanceof Timestamp ? value.toISOString() : value;
          }),
        )
      : null;
  return { items, next };
}
