// Keeps the module boundaries true: no cycles, the shared kernel (`common`, `config`) knows no
// feature, and a module reaches another only through its public surface, src/<module>/index.ts.
// The modules are the folders under src/, read here, so a new module is under every rule at once.
const fs = require('node:fs');
const path = require('node:path');

const MODULES = fs
  .readdirSync(path.join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const SHARED = ['common', 'config'];
const FEATURES = `(${MODULES.filter((name) => !SHARED.includes(name)).join('|')})`;

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
      name: 'only-through-public-surface',
      comment: "Another module's files are its own: import what it exports from src/<module>/index.ts.",
      severity: 'error',
      from: { path: '^src/([^/]+)' },
      to: { path: `^src/(${MODULES.join('|')})/`, pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'public-surface-exports-no-repository',
      comment: "A module's repositories and entities are its own; other modules use its exported services.",
      severity: 'error',
      from: { path: '^src/[^/]+/index\\.ts$' },
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
