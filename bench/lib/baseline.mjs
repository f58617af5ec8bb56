// BENCH_BASELINE: another commit of the service, checked out and built beside this one for an A/B
// in the same rounds, and removed again when the run ends.
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './processes.mjs';

/**
 * Checks `rev` of the repository at `root` out in `dir` (`git worktree add --detach`), links
 * `root`'s node_modules in and builds it; resolves with its commit. The baseline runs on the
 * packages of this checkout, so a commit whose packages differ much may not build.
 */
export async function checkOutBaseline(root, rev, dir) {
  const commit = (
    await run('git', ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`], { cwd: root }).catch(() => {
      throw new Error(`BENCH_BASELINE: "${rev}" names no commit`);
    })
  ).trim();
  await run('git', ['worktree', 'add', '--detach', dir, commit], { cwd: root });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await run('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: dir });
  return commit;
}

/** Removes the worktree at `dir` and git's record of it, whatever state a failed run left it in. */
export async function removeBaseline(root, dir) {
  await run('git', ['worktree', 'remove', '--force', dir], { cwd: root }).catch(async () => {
    rmSync(dir, { recursive: true, force: true });
    await run('git', ['worktree', 'prune'], { cwd: root });
  });
}
