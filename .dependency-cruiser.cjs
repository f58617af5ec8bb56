// Keeps the module boundaries of STYLE.md true: no cycles, `common` knows no feature,
// and feature modules reach each other only through what a module exports.
const FEATURES = '(pets|auth|plans|rate-limit|idempotency|health|metrics|logging|cli)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'common-knows-no-feature',
      comment: 'src/common is shared by every module and must not depend on any of them.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: `^src/${FEATURES}/` },
    },
    {
      name: 'no-reaching-into-repositories',
      comment: "A module's repositories and entities are its own; other modules use its exported services.",
      severity: 'error',
      from: { path: `^src/${FEATURES}/` },
      to: { path: `^src/${FEATURES}/.+\\.repository\\.ts$`, pathNot: '^src/$1/' },
    },
    {
      name: 'services-do-not-touch-typeorm',
      comment: 'Services hold the rules; only repositories (and entities, migrations, the data source) use TypeORM.',
      severity: 'error',
      from: { path: '\\.service\\.ts$' },
      to: { path: 'node_modules/typeorm/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      from: { orphan: true, pathNot: ['\\.d\\.ts$', '\\.spec\\.ts$', '(^|/)(main|cli)\\.ts$', 'write-openapi\\.ts$'] },
      to: {},
    },
    { name: 'no-test-code-in-src', severity: 'error', from: { path: '^src/' }, to: { path: '^test/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
  },
};
