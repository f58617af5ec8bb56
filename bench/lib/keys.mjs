// API keys for the benchmark, made with the service's own CLI (which also applies the migrations).
import { ROOT } from './paths.mjs';
import { run } from './processes.mjs';

/** A plan no load ever exceeds. */
export const ENTERPRISE = ['--plan', 'enterprise', '--per-minute', '1000000000', '--per-day', '1000000000'];

/** A new client with one key on `plan`: `{ key, clientId, ... }` as `keys create --json` prints it. */
export async function createKey(databaseUrl, plan = ENTERPRISE) {
  const out = await run(process.execPath, ['dist/src/cli.js', 'keys', 'create', ...plan, '--json'], {
    cwd: ROOT,
    env: { DATABASE_URL: databaseUrl, NODE_ENV: 'production', ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}
