import { parseDatabaseUrl } from './database-url.js';

describe('parseDatabaseUrl', () => {
  it.each([
    [undefined, { kind: 'sqlite', path: 'data/pets.sqlite' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['sqlite:/tmp/x.sqlite', { kind: 'sqlite', path: '/tmp/x.sqlite' }],
    ['postgres://u@h:5432/db', { kind: 'postgres', url: 'postgres://u@h:5432/db' }],
    ['postgresql://u@h/db', { kind: 'postgres', url: 'postgresql://u@h/db' }],
  ])('reads %p', (url, target) => expect(parseDatabaseUrl(url)).toEqual(target));

  it.each(['mysql://h/db', 'sqlite:', 'file.db', 'postgres://'])('refuses %p', (url) => expect(() => parseDatabaseUrl(url)).toThrow());
});
