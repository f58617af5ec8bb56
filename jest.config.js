/**
 * Jest in ESM mode (NestJS 12 is ESM-only): run through `npm test`, which starts Node with
 * --experimental-vm-modules. Type errors are caught by `npm run typecheck`, so ts-jest only
 * transpiles (isolatedModules), which keeps the suites fast.
 *
 * Projects, so a team runs its own (`npm test -- src/modules/pets test/pets --selectProjects unit e2e`):
 * `unit`, tests beside the code (src/**\/*.spec.ts), the unit tests that share test/support
 * (test/**\/*.spec.ts) and the benchmark's helpers' tests, in JavaScript like the benchmark
 * (test/bench/*.spec.mjs); `e2e`, end-to-end tests over the app factory on in-memory SQLite, under
 * test/<module>/ (test/**\/*.e2e-spec.ts); `integration`, tests against real servers, each selected
 * when its server is named: PostgreSQL by DATABASE_URL (test/<module>/*.postgres.int-spec.ts, one of
 * them through a PgBouncer it starts), Redis by REDIS_URL (test/<module>/*.redis.int-spec.ts). Once selected, an unreachable server (or a missing pgbouncer binary)
 * fails the suite; CI sets both. The fuzzing and fleet suites (test/fuzz, test/fleet) never run
 * here: `npm run test:fuzz` and `npm run test:fleet` select them.
 */
const integrationSuites = [
  ['DATABASE_URL', 'test/.*\\.postgres\\.int-spec\\.ts$', 'PostgreSQL'],
  ['REDIS_URL', 'test/.*\\.redis\\.int-spec\\.ts$', 'Redis'],
].flatMap(([variable, pattern, server]) => {
  if (process.env[variable]) return [pattern];
  console.log(`${variable} is not set: the ${server} integration suite is not selected (CI sets it).`);
  return [];
});

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

// The suites that run the built output as a real process (the CLI, graceful shutdown) need dist/.
const built = { globalSetup: './test/support/build-once.js' };

/** @type {import('jest').Config} */
export default {
  projects: [
    project('unit', ['src/.*\\.spec\\.ts$', 'test/.*/[^/]+\\.spec\\.ts$', 'test/bench/[^/]+\\.spec\\.mjs$']),
    project('e2e', ['test/.*\\.e2e-spec\\.ts$'], built),
    ...(integrationSuites.length > 0 ? [project('integration', integrationSuites, built)] : []),
  ],
  testTimeout: 30_000,
  maxWorkers: 2,
};
