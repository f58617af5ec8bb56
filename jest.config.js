/**
 * Jest in ESM mode (NestJS 12 is ESM-only): run through `npm test`, which starts Node with
 * --experimental-vm-modules. Type errors are caught by `npm run typecheck`, so ts-jest only
 * transpiles (isolatedModules), which keeps the suites fast.
 *
 * Suites: unit tests beside the code (src/**\/*.spec.ts); end-to-end tests over the app
 * factory on in-memory SQLite (test/**\/*.e2e-spec.ts); integration tests against real
 * servers, each selected when its server is named: PostgreSQL by DATABASE_URL
 * (test/postgres.int-spec.ts, and test/pgbouncer.int-spec.ts through a PgBouncer it starts),
 * Redis by REDIS_URL (test/redis*.int-spec.ts). Once selected, an unreachable server (or a
 * missing pgbouncer binary) fails the suite; CI sets both. The fuzzing and fleet suites
 * (test/fuzz, test/fleet) never run here: `npm run test:fuzz` and `npm run test:fleet` select them.
 */
const integrationSuites = [
  ['DATABASE_URL', 'test/(postgres|pgbouncer)\\.int-spec\\.ts$', 'PostgreSQL'],
  ['REDIS_URL', 'test/redis.*\\.int-spec\\.ts$', 'Redis'],
].flatMap(([variable, pattern, server]) => {
  if (process.env[variable]) return [pattern];
  console.log(`${variable} is not set: the ${server} integration suite is not selected (CI sets it).`);
  return [];
});

const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
};

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
  testRegex: ['src/.*\\.spec\\.ts$', 'test/.*\\.e2e-spec\\.ts$', ...integrationSuites],
  globalSetup: './test/support/build-once.js',
  testTimeout: 30_000,
  maxWorkers: 2,
};
