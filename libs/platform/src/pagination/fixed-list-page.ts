import { InvalidInputError } from '../http/domain-error';
import { CursorBinding, CursorCodec } from './cursor-codec';
import { DEFAULT_PAGE_SIZE, Page, PageRequest } from './keyset-page';

/**
 * A page of a small collection held in memory in a fixed order (the integration catalog): the
 * same `limit`, signed `cursor` and `next` as every other listing (decisions §5). The cursor
 * carries the key of the last item sent; a key no longer in the list is an invalid cursor.
 */
export function fixedListPage<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  codec: CursorCodec,
  binding: Omit<CursorBinding, 'ordering'>,
  request: PageRequest,
): Page<T> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  const fullBinding: CursorBinding = { ...binding, ordering: 'fixed' };
  let start = 0;
  if (request.cursor !== undefined) {
    const [key] = codec.decode(fullBinding, request.cursor);
    const index = items.findIndex((item) => keyOf(item) === key);
    if (index < 0) throw new InvalidInputError('Invalid cursor: pass the `next` value of this listing unchanged');
    start = index + 1;
  }
  const page = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return { items: page, next: more && page.length > 0 ? codec.encode(fullBinding, [keyOf(page[page.length - 1])]) : null };
}
