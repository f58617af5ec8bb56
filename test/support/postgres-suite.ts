import pg from 'pg';

/** Long enough for the other PostgreSQL suite to finish on a loaded machine. */
const TURN_TIMEOUT_MS = 120_000;
/** Any constant; only the suites of this project take it. */
const TURN_LOCK = 7_106_521;

/**
 * The PostgreSQL suites (test/postgres.int-spec.ts, test/pgbouncer.int-spec.ts) share the database
 * DATABASE_URL names and each starts from an empty schema, while jest may run them at once in two
 * workers: so they take turns. From `beforeAll` to `afterAll` a suite holds a session advisory
 * lock on a direct connection of its own (the tests' lock: the service takes none), and empties
 * the schema once it has the turn. An unreachable database fails the suite.
 */
export function postgresSuiteTurn(url: string): void {
  const turn = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });

  beforeAll(async () => {
    expect(url).toMatch(/^postgres(ql)?:\/\//);
    await turn.connect();
    await turn.query('SELECT pg_advisory_lock($1)', [TURN_LOCK]);
    await turn.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  }, TURN_TIMEOUT_MS);

  afterAll(() => turn.end());
}
