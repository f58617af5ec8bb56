import { decodeCursor, encodeCursor } from './cursor.js';

describe('cursor', () => {
  it('round-trips a position', () => {
    const cursor = encodeCursor({ after: 42, status: 'sold' });
    expect(cursor).toMatch(/^[\w-]+\.[\w-]{10}$/);
    expect(decodeCursor(cursor)).toEqual({ after: 42, status: 'sold' });
  });

  it('refuses a cursor whose payload was edited', () => {
    const [, tag] = encodeCursor({ after: 42 }).split('.');
    const forged = Buffer.from(JSON.stringify({ after: 1 })).toString('base64url');
    expect(decodeCursor(`${forged}.${tag}`)).toBeUndefined();
  });

  it.each(['', '.', 'abc', 'abc.def', 'a.b.c', `${Buffer.from('[1]').toString('base64url')}.x`])(
    'refuses the malformed cursor %p',
    (raw) => {
      expect(decodeCursor(raw)).toBeUndefined();
    },
  );

  it('refuses a well-tagged payload that is not an object', () => {
    const cursor = encodeCursor({ after: 1 });
    const [payload] = cursor.split('.');
    expect(decodeCursor(`${payload}x.${cursor.split('.')[1]}`)).toBeUndefined();
  });
});
