// PostgreSQL helpers: the bench database and the server's version.
import pg from 'pg';

/** The same server's `postgres` database: where the benchmark creates and watches its own. */
function adminUrl(url) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return admin.toString();
}

export function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The server's version, creating the database first when `create` is set and it is missing. */
export async function preparePostgres(url, { create }) {
  return withClient(adminUrl(url), async (client) => {
    const name = databaseName(url);
    const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    let created = false;
    if (!exists && create) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      created = true;
    }
    const version = (await client.query('SHOW server_version')).rows[0].server_version;
    return { version, created, existed: exists };
  });
}
