// SQL statements per request: a dedicated instance of B behind a PostgreSQL protocol proxy that
// counts the Query and Execute messages the server sends, per endpoint, in steady state.
import { join } from 'node:path';
import { load } from '../lib/load.mjs';
import { log } from '../lib/log.mjs';
import { ROOT } from '../lib/paths.mjs';
import { startCountingProxy } from '../lib/pg-proxy.mjs';
import { startServer, stopServer } from '../lib/processes.mjs';

/**
 * `definition` is B's (undefined without PostgreSQL: skipped); `sqlRequests` list requests are
 * counted, a third of that for each other endpoint.
 * @param {{ definition?: any, databaseUrl: string, tmp: string, config: { sqlRequests: number, connections: number } }} options
 */
export async function measureSqlStatements({ definition, databaseUrl, tmp, config }) {
  if (!definition) return { skipped: 'no PostgreSQL' };
  const upstream = new URL(databaseUrl);
  const proxy = await startCountingProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  log(`SQL statements per request: B behind a PostgreSQL protocol proxy that counts Query and Execute messages`);
  const counted = await startServer({
    name: `${definition.label} (statements counted)`,
    script: definition.script,
    env: { ...definition.env, DATABASE_URL: proxied.toString() },
    readyPath: '/health/live',
    logFile: join(tmp, 'counted.log'),
    cwd: ROOT,
  });
  try {
    const targets = definition.targets;
    const sql = { method: 'PostgreSQL wire protocol: Query + Execute messages from the server', endpoints: {} };
    for (const name of definition.endpoints) {
      const amount = name === 'list' ? config.sqlRequests : Math.ceil(config.sqlRequests / 3);
      // Warm: the pool is open and the key and plan lookups are cached, as in steady state.
      await load({ base: counted.base, target: targets[name], connections: config.connections, seconds: 2, latencies: false });
      const before = proxy.snapshot();
      const r = await load({ base: counted.base, target: targets[name], connections: config.connections, amount, latencies: false });
      const after = proxy.snapshot();
      const statements = after.statements - before.statements;
      sql.endpoints[name] = {
        endpoint: targets[name].label,
        requests: r.ok,
        seconds: r.seconds,
        statements,
        perRequest: statements / r.ok,
        newConnections: after.connections - before.connections,
      };
      log(
        `  ${targets[name].label}: ${(statements / r.ok).toFixed(3)} statements per request (${statements} / ${r.ok} in ${r.seconds.toFixed(1)} s)`,
      );
    }
    return Object.assign(sql, sql.endpoints.list);
  } finally {
    await stopServer(counted);
    await proxy.close();
  }
}
