import { ValidationFailedException } from '../errors/api.exception.js';
import { encodeCursor } from './cursor.js';
import { pageStart, toPage } from './keyset-page.js';

describe('keyset pages', () => {
  const rows = [{ id: 3 }, { id: 5 }, { id: 8 }];

  it('starts the first page at 0 and the next one after the last id shown', () => {
    expect(pageStart(undefined, { clientId: 7 })).toBe(0);
    const { items, nextCursor } = toPage(rows, 2, { clientId: 7 });
    expect(items).toEqual([{ id: 3 }, { id: 5 }]);
    expect(pageStart(nextCursor!, { clientId: 7 })).toBe(5);
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
  });
});
