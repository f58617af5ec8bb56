import { randomBytes } from 'node:crypto';
import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Databases of a test's own on the run's PostgreSQL server (test/support/global-setup.ts: DATABASE_URL's,
 * else an embedded one). Names start with the run's prefix, so the global teardown drops them all.
 */
const { TEST_DATABASE_SERVER: SERVER = '', TEST_DATABASE_PREFIX: PREFIX = '', TEST_DATABASE_IDLE: IDLE = '' } = process.env;
/** The tables the migrations fill, which an emptied database keeps as they are (global-setup.ts). */
const FILLED = new Set((process.env.TEST_DATABASE_FILLED ?? '').split(',').filter(Boolean));

async function connected<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

function urlOf(database: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${database}`;
  return url.href;
}

async function newDatabase(template?: string): Promise<string> {
  if (!SERVER) throw new Error('No test database server: the e2e and integration projects start one in their global setup.');
  const name = `${PREFIX}_${randomBytes(6).toString('hex')}`;
  await connected(SERVER, (client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return name;
}

/** An empty database, no table in it: for suites that migrate it themselves or test the migrations. */
export async function emptyDatabase(): Promise<string> {
  return urlOf(await newDatabase());
}

export interface MigratedDatabase {
  url: string;
  /** Once nothing uses it any more: another test of the run gets it, emptied. */
  release: () => void;
}

/**
 * A migrated database with no rows, as the application's first start leaves it: a copy of the run's
 * template, or one a finished test released (shared by the workers through files in TEST_DATABASE_IDLE,
 * one a database, claimed by deleting it), its tables emptied but those the migrations fill.
 */
export async function migratedDatabase(): Promise<MigratedDatabase> {
  const name = (await claimIdle()) ?? (await newDatabase(`${PREFIX}_template`));
  return { url: urlOf(name), release: () => writeFileSync(join(IDLE, name), '') };
}

async function claimIdle(): Promise<string | undefined> {
  for (const name of readdirSync(IDLE)) {
    try {
      unlinkSync(join(IDLE, name));
    } catch {
      continue; // another worker took it
    }
    await connected(urlOf(name), async (client) => {
      const { rows } = await client.query<{ name: string }>(
        "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'",
      );
      const emptied = rows.map((table) => table.name).filter((name) => !FILLED.has(name));
      await client.query(`TRUNCATE ${emptied.join(', ')} RESTART IDENTITY`);
    });
    return name;
  }
  return undefined;
}

/** The rows of one statement, on a connection of its own: what another process would read. */
export function queryDatabase<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  return connected(url, async (client) => (await client.query<T>(sql, values)).rows);
}

/** The tables of a database: none until something migrated it. */
export async function tablesIn(url: string): Promise<string[]> {
  const rows = await queryDatabase<{ name: string }>(url, "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  return rows.map((row) => row.name);
}
