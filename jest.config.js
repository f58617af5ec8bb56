import { spawnSync } from 'node:child_process';

/**
 * Jest in ESM mode (NestJS 12 is ESM-only): run through `npm test`, which starts Node with
 * --experimental-vm-modules. Type errors are caught by `npm run typecheck`, so ts-jest only
 * transpiles (isolatedModules), which keeps the suites fast.
 *
 * Projects, so a team runs its own (`npm test -- src/modules/pets test/pets --selectProjects unit e2e`):
 * `unit`, tests beside the code (src/**\/*.spec.ts, the client library's client/src/**\/*.spec.ts), the unit tests that share test/support
 * (test/**\/*.spec.ts) and the benchmark's helpers' tests, in JavaScript like the benchmark
 * (test/bench/*.spec.mjs); `e2e`, end-to-end tests over the app factory, under test/<module>/
 * (test/**\/*.e2e-spec.ts); `integration`, tests against real servers: PostgreSQL always
 * (test/<module>/*.postgres.int-spec.ts; the one through a PgBouncer it starts when `pgbouncer` is
 * installed), Redis when REDIS_URL names it (test/<module>/*.redis.int-spec.ts; an unreachable one
 * fails the suite, CI sets it). The e2e and integration suites run on PostgreSQL, each test app and suite on a database of its
 * own, on the server DATABASE_URL names or else on an embedded one (test/support/global-setup.ts).
 * The fuzzing and fleet suites (test/fuzz, test/**\/*.fleet-spec.ts) never run here: `npm run test:fuzz` and
 * `npm run test:fleet` select them.
 */
const integrationSuites = ['test/(?!database/pgbouncer\\.).*\\.postgres\\.int-spec\\.ts$'];
if (spawnSync('pgbouncer', ['--version'], { stdio: 'ignore' }).error === undefined) {
  integrationSuites.push('test/database/pgbouncer\\.postgres\\.int-spec\\.ts$');
} else console.log('pgbouncer is not installed: the PgBouncer suite is not selected (CI installs it).');
if (process.env.REDIS_URL) integrationSuites.push('test/.*\\.redis\\.int-spec\\.ts$');
else console.log('REDIS_URL is not set: the Redis integration suite is not selected (CI sets it).');

const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
};

/**
 * @param {string} displayName
 * @param {string[]} testRegex
 * @param {import('jest').Config} [options]
 * @returns {import('jest').Config}
 */
const project = (displayName, testRegex, options = {}) => ({
  displayName,
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
  testRegex,
  ...options,
});

// The built service (dist/) and the run's PostgreSQL server, once for both projects.
const built = { globalSetup: './test/support/global-setup.ts', globalTeardown: './test/support/global-teardown.ts' };

/** @type {import('jest').Config} */
export default {
  projects: [
    project('unit', ['src/.*\\.spec\\.ts$', 'test/.*/[^/]+\\.spec\\.ts$', 'test/bench/[^/]+\\.spec\\.mjs$']),
    project('e2e', ['test/.*\\.e2e-spec\\.ts$'], built),
    project('integration', integrationSuites, built),
  ],
  testTimeout: 30_000,
  maxWorkers: 2,
  // `npm run test:client-unit`: the client library's unit tests cover every branch of its code.
  coverageThreshold: { './client/src/': { branches: 100, functions: 100, lines: 100, statements: 100 } },
};
