import { ValidationFailedException } from '../errors/api.exception.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** What a caller asks for: the cursor of the page before (none for the first) and at most `limit` items. */
export type PageRequest = { cursor?: string; limit?: number };

/** Values a listing is filtered by; a cursor carries them, so it continues only the listing it came from. */
export type ListingFilter = Record<string, string | number | null>;

/** `nextCursor` continues this listing; null on the last page. */
export type Page<T> = { items: T[]; nextCursor: string | null };

// The one way to page (keyset, by id, in either order): `pageStart` reads where a page starts, the
// repository reads `limit + 1` rows past it in the listing's order, and `toPage` cuts them.
export function pageStart(cursor: string | undefined, filter: ListingFilter): number | undefined {
  if (cursor === undefined) return undefined;
  const { after, ...listing } = decodeCursor(cursor) ?? {};
  const sameListing =
    Object.keys(listing).length === Object.keys(filter).length && Object.entries(filter).every(([name, value]) => listing[name] === value);
  if (!sameListing || typeof after !== 'number' || !Number.isSafeInteger(after) || after < 1) {
    const message = 'cursor is malformed or continues another listing; pass the one the page before gave';
    throw new ValidationFailedException([{ field: 'cursor', message }], message);
  }
  return after;
}

/** A page from rows read in the listing's order, one more than `limit`: the cursor after its last row when more follow. */
export function toPage<T extends { id: number }>(rows: readonly T[], limit: number, filter: ListingFilter): Page<T> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ after: Number(last.id), ...filter }) : null };
}
