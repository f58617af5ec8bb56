import { databaseConfig } from './database.config.js';

describe('databaseConfig checks', () => {
  const problem = (value: string) => databaseConfig.checks.DATABASE_URL(value, {});

  it.each(['postgres://u@h:5432/db', 'postgresql://u@h/db'])('takes %p', (url) => expect(problem(url)).toBeUndefined());

  it.each(['mysql://h/db', 'sqlite::memory:', 'sqlite:data/pets.sqlite', 'file.db', 'postgres://'])('refuses %p', (url) =>
    expect(problem(url)).toBe('must be a postgres:// URL with a host'),
  );
});
