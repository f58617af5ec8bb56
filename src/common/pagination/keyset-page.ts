import { ValidationFailedException } from '../errors/api.exception.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** What a caller asks for: the cursor of the page before (none for the first) and at most `limit` items. */
export interface PageRequest {
  cursor?: string;
  limit?: number;
}

/** Values a listing is filtered by; a cursor carries them, so it continues only the listing it came from. */
export type ListingFilter = Record<string, number | null>;

/** The id after which a keyset page starts: 0 for the first page, else the last id of the page before. */
export function pageStart(cursor: string | undefined, filter: ListingFilter): number {
  if (cursor === undefined) return 0;
  const { after, ...listing } = decodeCursor(cursor) ?? {};
  const sameListing =
    Object.keys(listing).length === Object.keys(filter).length && Object.entries(filter).every(([name, value]) => listing[name] === value);
  if (!sameListing || typeof after !== 'number' || !Number.isSafeInteger(after) || after < 1) {
    const message = 'cursor is malformed or continues another listing; pass the nextCursor of the page before';
    throw new ValidationFailedException([{ field: 'cursor', message }], message);
  }
  return after;
}

/** A page from rows read in ascending id order, one more than `limit`: the cursor after its last row when more follow. */
export function toPage<T extends { id: number }>(
  rows: readonly T[],
  limit: number,
  filter: ListingFilter,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor({ after: Number(last.id), ...filter }) : null };
}
