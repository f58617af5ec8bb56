// Earlier states of the repository, checked out for the run: a detached `git worktree` each, with
// the repository's node_modules linked in, removed again (worktree and git's record of it) when the
// benchmark ends, whatever happens.
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './processes.mjs';

/** @type {{ repo: string, dir: string }[]} */
const checkouts = [];

/** The full commit hash `rev` names in `repo`; fails, naming `rev`, when it names no commit. */
export async function resolveCommit(repo, rev) {
  try {
    return (await run('git', ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`], { cwd: repo })).trim();
  } catch {
    throw new Error(`"${rev}" names no commit in ${repo}`);
  }
}

/** Checks out `commit` of `repo` at `dir` (a detached worktree) with `repo`'s node_modules linked in. */
export async function checkoutAt(repo, commit, dir) {
  checkouts.push({ repo, dir });
  await run('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** Removes every checkout made so far (`git worktree remove --force`, then `git worktree prune`). */
export async function removeCheckouts() {
  const repos = new Set();
  for (const { repo, dir } of checkouts.splice(0)) {
    repos.add(repo);
    // A checkout that failed halfway may not be a worktree git can remove: its folder goes, and
    // prune forgets what git recorded of it.
    await run('git', ['worktree', 'remove', '--force', dir], { cwd: repo }).catch(() => rmSync(dir, { recursive: true, force: true }));
  }
  for (const repo of repos) await run('git', ['worktree', 'prune'], { cwd: repo });
}
