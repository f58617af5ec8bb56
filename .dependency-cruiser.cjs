// Keeps the architecture the folders show. src/common is the shared kernel; src/platform holds
// the infrastructure (config, database, Redis, logging, metrics, OpenAPI, health); src/policies the
// request policies (rate limit, read cache, idempotency); src/modules the product. A module is a
// folder in one of them (or src/cli), read here, so a new one is under every rule at once.
const fs = require('node:fs');
const path = require('node:path');

/** @param {string} group */
const foldersOf = (group) =>
  fs
    .readdirSync(path.join(__dirname, 'src', group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${group}/${entry.name}`);
const MODULES = ['common', 'cli', ...['platform', 'policies', 'modules'].flatMap(foldersOf)];
/** @param {string[]} names */
const anyOf = (names) => `(${names.join('|')})`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'common-is-the-kernel',
      comment: 'src/common is shared by everything; it reads configuration and nothing else of the service.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: ['^src/common/', '^src/platform/config/'] },
    },
    {
      name: 'platform-knows-no-product-or-policy',
      comment: 'The platform serves every module; it must not depend on a policy or a product module.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(policies|modules)/' },
    },
    {
      name: 'only-through-public-surface',
      comment: "Another module's files are its own: import what it exports from its index.ts.",
      severity: 'error',
      from: { path: `^src/${anyOf(MODULES)}/` },
      to: { path: `^src/${anyOf(MODULES)}/`, pathNot: ['^src/$1/', `^src/${anyOf(MODULES)}/index\\.ts$`] },
    },
    {
      name: 'public-surface-exports-no-repository',
      comment: "A module's repositories are its own; other modules use its exported services.",
      severity: 'error',
      from: { path: '/index\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
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
