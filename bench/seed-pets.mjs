#!/usr/bin/env node
// Seeds the pets table with many animals for the benchmark's deep-page measurement (never used by
// the tests). The database is the service's own (DATABASE_URL: postgres://… or sqlite:PATH) and must
// already have its schema: start the service once, or run `npm run migration:run`, or create a key
// with the CLI (all of them apply the migrations).
//
//   npm run bench:seed                                    # tops the table up to 1,000,000 animals
//   node bench/seed-pets.mjs --count 1000000 --reset      # empties the table first (ids restart at 1)
//
// PostgreSQL: one INSERT … SELECT over generate_series, then VACUUM ANALYZE. SQLite: batched
// inserts through one prepared statement inside one transaction, then ANALYZE. Ids come from the
// table's own sequence, so after --reset they are exactly 1..count, and the service keeps
// assigning new ids after them. Names are "Pet <n>", categories 1..20, and the statuses 60 %
// available, 30 % pending, 10 % sold, interleaved.
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

export const DEFAULT_COUNT = 1_000_000;

/** The status of the n-th seeded animal (n from 1): 6 in 10 available, 3 pending, 1 sold. */
const STATUS_SQL = `CASE WHEN g % 10 < 6 THEN 'available' WHEN g % 10 < 9 THEN 'pending' ELSE 'sold' END`;
const statusOf = (n) => (n % 10 < 6 ? 'available' : n % 10 < 9 ? 'pending' : 'sold');

/**
 * Makes the pets table hold at least `count` animals (exactly `count` after `reset`).
 * @param {{ url: string, count?: number, reset?: boolean, log?: (line: string) => void }} options
 * @returns {Promise<{ before: number, inserted: number, after: number, maxId: number, ms: number }>}
 */
export async function seedPets({ url, count = DEFAULT_COUNT, reset = false, log = () => undefined }) {
  const started = Date.now();
  const result = /^postgres(ql)?:\/\//.test(url)
    ? await seedPostgres(url, count, reset, log)
    : await seedSqlite(sqlitePath(url), count, reset, log);
  return { ...result, ms: Date.now() - started };
}

function sqlitePath(url) {
  if (!url.startsWith('sqlite:') || url === 'sqlite::memory:' || url.length === 'sqlite:'.length) {
    throw new Error(`DATABASE_URL must be postgres://… or sqlite:PATH (a file) to seed; got "${url}"`);
  }
  return url.slice('sqlite:'.length);
}

async function seedPostgres(url, count, reset, log) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await requireTable(() => client.query(`SELECT to_regclass('public.pets') AS t`).then((r) => r.rows[0].t));
    if (reset) await client.query('TRUNCATE pets RESTART IDENTITY');
    const before = Number((await client.query('SELECT count(*) AS n FROM pets')).rows[0].n);
    const missing = Math.max(0, count - before);
    if (missing > 0) {
      log(`inserting ${missing.toLocaleString('en')} animals into PostgreSQL (generate_series)…`);
      await client.query(
        `INSERT INTO pets (name, category_id, status)
         SELECT 'Pet ' || g, 1 + g % 20, ${STATUS_SQL} FROM generate_series(1, $1::int) AS g ORDER BY g`,
        [missing],
      );
    }
    log('VACUUM ANALYZE pets…');
    await client.query('VACUUM ANALYZE pets');
    const { n, max } = (await client.query('SELECT count(*) AS n, max(id) AS max FROM pets')).rows[0];
    return { before, inserted: missing, after: Number(n), maxId: Number(max ?? 0) };
  } finally {
    await client.end();
  }
}

async function seedSqlite(path, count, reset, log) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    await requireTable(() => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'pets'`).get());
    if (reset) {
      db.exec('DELETE FROM pets');
      const sequence = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`).get();
      if (sequence) db.exec(`DELETE FROM sqlite_sequence WHERE name = 'pets'`);
    }
    const before = db.prepare('SELECT count(*) AS n FROM pets').get().n;
    const missing = Math.max(0, count - before);
    if (missing > 0) {
      log(`inserting ${missing.toLocaleString('en')} animals into SQLite (one transaction)…`);
      const BATCH = 500;
      const row = '(?, ?, ?)';
      const insertBatch = db.prepare(`INSERT INTO pets (name, category_id, status) VALUES ${Array(BATCH).fill(row).join(', ')}`);
      const insertOne = db.prepare(`INSERT INTO pets (name, category_id, status) VALUES ${row}`);
      const values = (n) => [`Pet ${n}`, 1 + (n % 20), statusOf(n)];
      db.transaction(() => {
        let n = 1;
        for (; n + BATCH - 1 <= missing; n += BATCH) {
          const args = [];
          for (let i = n; i < n + BATCH; i++) args.push(...values(i));
          insertBatch.run(args);
        }
        for (; n <= missing; n++) insertOne.run(values(n));
      })();
    }
    log('ANALYZE…');
    db.exec('ANALYZE');
    const { n, max } = db.prepare('SELECT count(*) AS n, max(id) AS max FROM pets').get();
    return { before, inserted: missing, after: n, maxId: max ?? 0 };
  } finally {
    db.close();
  }
}

async function requireTable(exists) {
  if (!(await exists())) {
    throw new Error('the pets table does not exist yet: start the service once or run `npm run migration:run` first');
  }
}

async function main() {
  const { values } = parseArgs({
    options: { count: { type: 'string', default: String(DEFAULT_COUNT) }, reset: { type: 'boolean', default: false } },
  });
  const count = Number(values.count);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error('--count must be a positive integer');
  const url = process.env.DATABASE_URL || 'sqlite:data/pets.sqlite';
  const result = await seedPets({ url, count, reset: values.reset, log: (line) => console.log(line) });
  console.log(
    `pets: ${result.before.toLocaleString('en')} before, ${result.inserted.toLocaleString('en')} inserted, ` +
      `${result.after.toLocaleString('en')} now (max id ${result.maxId}), ${(result.ms / 1000).toFixed(1)} s`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`seed-pets: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
