// Keeps the architecture the folders show. src/common is the shared kernel; src/platform holds
// the infrastructure (config, database, Redis, logging, metrics, OpenAPI, health); src/policies the
// request policies (rate limit, read cache, idempotency); src/modules the product. A module is a
// folder in one of them (or src/cli), read here, so a new one is under every rule at once.
const fs = require('node:fs');
const path = require('node:path');

/** @param {string} group */
const foldersOf = (group) =>
  fs
    .readdirSync(path.join(__dirname, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${group}/${entry.name}`);
// The fixture module of test/extending is a module like any other: the same rules hold it.
const MODULES = ['src/common', 'src/cli', ...['src/platform', 'src/policies', 'src/modules', 'test/extending'].flatMap(foldersOf)];
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
      from: { path: `^${anyOf(MODULES)}/` },
      to: { path: `^${anyOf(MODULES)}/`, pathNot: ['^$1/', `^${anyOf(MODULES)}/index\\.ts$`] },
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
    {
      name: 'client-library-stands-alone',
      comment:
        'client/ ships with no runtime dependency and runs in browsers: its code imports only its own files, no package, no Node.js module.',
      severity: 'error',
      from: { path: '^client/src/', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: '^client/src/' },
    },
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
