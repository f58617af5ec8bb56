/**
 * What the project's jest configurations (jest.config.js, jest.fleet.config.js) share: TypeScript
 * in ESM mode, transpiled only (type errors are `npm run typecheck`'s), and one build of dist/
 * before any suite, for the suites that run the built service as a process.
 */
export const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  globalSetup: './test/support/build-once.js',
};
