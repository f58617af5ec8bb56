import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from './cursor.js';

describe('cursor', () => {
  it('round-trips a position', () => {
    const cursor = encodeCursor({ after: 42, status: 'sold' });
    expect(cursor).toMatch(/^[\w-]+\.[\w-]{10}$/);
    expect(decodeCursor(cursor)).toEqual({ after: 42, status: 'sold' });
  });

  it('refuses a cursor whose payload was edited without its checksum', () => {
    const [, sum] = encodeCursor({ after: 42 }).split('.');
    const edited = Buffer.from(JSON.stringify({ after: 1 })).toString('base64url');
    expect(decodeCursor(`${edited}.${sum}`)).toBeUndefined();
  });

  it.each(['', '.', 'abc', 'abc.def', 'a.b.c', `${Buffer.from('[1]').toString('base64url')}.x`])(
    'refuses the malformed cursor %p',
    (raw) => {
      expect(decodeCursor(raw)).toBeUndefined();
    },
  );

  it.each([[[1]], [42], ['after'], [null]])('refuses a payload with a right checksum that is not an object: %p', (value) => {
    const cursor = encodeCursor(value as unknown as Record<string, unknown>);
    expect(decodeCursor(cursor)).toBeUndefined();
  });

  it('refuses a payload with a right checksum that is not JSON', () => {
    // The checksum is public by design (see cursor.ts), so a client can compute it too.
    const payload = Buffer.from('{after:1').toString('base64url');
    const sum = createHash('sha256').update(`pets-cursor:${payload}`).digest('base64url').slice(0, 10);
    expect(decodeCursor(`${payload}.${sum}`)).toBeUndefined();
    const good = Buffer.from('{"after":1}').toString('base64url');
    const goodSum = createHash('sha256').update(`pets-cursor:${good}`).digest('base64url').slice(0, 10);
    expect(decodeCursor(`${good}.${goodSum}`)).toEqual({ after: 1 });
  });
});
