import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BeArEr    abc', 'abc'],
    ['Bearer abc ', 'abc'],
  ])('reads %p', (header, token) => expect(bearerToken(header)).toBe(token));

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearerabc', 'Bearer a b', ' Bearer abc'])('finds no token in %p', (header) =>
    expect(bearerToken(header)).toBeUndefined(),
  );
});
