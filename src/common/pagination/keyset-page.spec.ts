import { ValidationFailedException } from '../errors/api.exception.js';
import { encodeCursor } from './cursor.js';
import { pageStart, toPage } from './keyset-page.js';

describe('keyset pages', () => {
  const rows = [{ id: 3 }, { id: 5 }, { id: 8 }];

  it('starts the first page nowhere and the next one after the last id shown', () => {
    expect(pageStart(undefined, { clientId: 7 })).toBeUndefined();
    const { items, nextCursor } = toPage(rows, 2, { clientId: 7 });
    expect(items).toEqual([{ id: 3 }, { id: 5 }]);
    expect(pageStart(nextCursor!, { clientId: 7 })).toBe(5);
  });

  it('pages newest first alike, and binds a cursor to a text filter too', () => {
    const newest = [{ id: 9 }, { id: 4 }, { id: 2 }];
    const { nextCursor } = toPage(newest, 2, { action: 'key.created' });
    expect(pageStart(nextCursor!, { action: 'key.created' })).toBe(4);
    expect(() => pageStart(nextCursor!, { action: 'key.revoked' })).toThrow(ValidationFailedException);
  });

  it('hands out no cursor on the last page', () => {
    expect(toPage(rows, 3, {})).toEqual({ items: rows, nextCursor: null });
    expect(toPage([], 3, {})).toEqual({ items: [], nextCursor: null });
  });

  it.each([
    ['a typo', `${encodeCursor({ after: 5 })}x`],
    ['another listing', encodeCursor({ after: 5, clientId: 8 })],
    ['a listing with a filter more', encodeCursor({ after: 5, clientId: 7, status: 'x' })],
    ['no filter where one is needed', encodeCursor({ after: 5 })],
    ['a position that is not an id', encodeCursor({ after: '5', clientId: 7 })],
    ['a position below 1', encodeCursor({ after: 0, clientId: 7 })],
  ])('refuses a cursor with %s as validation_failed on the cursor', (_case, cursor) => {
    expect(() => pageStart(cursor, { clientId: 7 })).toThrow(ValidationFailedException);
    expect(() => pageStart(cursor, { clientId: 7 })).toThrow(
      expect.objectContaining({ details: [{ field: 'cursor', message: expect.stringContaining('continues another listing') }] }),
    );
  });
});
