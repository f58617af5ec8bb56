import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The image builds with no compiler and runs on any Node the registry serves only while no production
 * dependency brings a compiled module (docs/container.md). A dependency that brings one fails here
 * until the image is given its build and a check on every Node the service is tested on.
 */
describe('native modules', () => {
  /** Whether a package's own files (not its nested dependencies) include a compiled module. */
  function hasNativeModule(folder: string): boolean {
    return readdirSync(folder, { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? entry.name !== 'node_modules' && hasNativeModule(join(folder, entry.name)) : entry.name.endsWith('.node'),
    );
  }

  it('the production dependencies bring none', () => {
    const { packages } = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean }>;
    };
    const native = Object.entries(packages)
      .filter(([folder, entry]) => folder !== '' && !entry.dev && !entry.optional && existsSync(folder) && hasNativeModule(folder))
      .map(([folder]) => folder);
    expect(native).toEqual([]);
  });
});
