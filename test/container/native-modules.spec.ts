import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * A native module is compiled for one Node ABI, so each is checked on every Node the service is
 * tested on: CI runs the unit suites on the machine's Node 20 and on Node 24, the image's
 * (`npm run test:node24`). A production dependency that brings a new one fails here until it is
 * given a check.
 */
describe(`native modules on Node ${process.version} (ABI ${process.versions.modules})`, () => {
  /** Whether a package's own files (not its nested dependencies) include a compiled module. */
  function hasNativeModule(folder: string): boolean {
    return readdirSync(folder, { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? entry.name !== 'node_modules' && hasNativeModule(join(folder, entry.name)) : entry.name.endsWith('.node'),
    );
  }

  it('the production dependencies bring one: better-sqlite3', () => {
    const { packages } = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const native = Object.entries(packages)
      .filter(([folder, entry]) => folder !== '' && !entry.dev && existsSync(folder) && hasNativeModule(folder))
      .map(([folder]) => folder);
    expect(native).toEqual(['node_modules/better-sqlite3']);
  });

  it('better-sqlite3 outlives the garbage collection of its statements, in a process of its own', () => {
    const run = spawnSync(process.execPath, ['test/container/statement-gc.cjs'], { encoding: 'utf8' });
    expect({ status: run.status, signal: run.signal, stdout: run.stdout.trim(), stderr: run.stderr.slice(0, 300) }).toEqual({
      status: 0,
      signal: null,
      stdout: 'survived',
      stderr: '',
    });
  });

  it('better-sqlite3 runs SQL, with a transaction and a 64-bit integer', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO pets (id, name) VALUES (?, ?)');
    db.transaction(() => {
      insert.run(2n ** 62n, 'Rex');
      insert.run(1, 'Bella');
    })();
    const rows = db.prepare('SELECT id, name FROM pets ORDER BY id').safeIntegers(true).all();
    db.close();
    expect(rows).toEqual([
      { id: 1n, name: 'Bella' },
      { id: 2n ** 62n, name: 'Rex' },
    ]);
  });
});
