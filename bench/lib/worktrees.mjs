// Earlier states of the repository, checked out for the run: a detached `git worktree` each, with
// the repository's node_modules linked in (or, for a commit whose package-lock.json differs, the
// packages that lock file names, installed once per distinct lock file), removed again (worktree
// and git's record of it) when the benchmark ends, whatever happens.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './log.mjs';
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

/**
 * Checks out `commit` of `repo` at `dir` (a detached worktree) with the packages it was built with
 * linked in: `repo`'s node_modules when its package-lock.json is the same, else an install of its
 * own lock file under `modulesRoot`, shared by every commit with that lock file. Install scripts are
 * skipped (no native SQLite build): a step runs as B, on PostgreSQL.
 */
export async function checkoutAt(repo, commit, dir, modulesRoot) {
  checkouts.push({ repo, dir });
  await run('git', ['worktree', 'add', '--detach', dir, commit], { cwd: repo });
  const lock = readFileSync(join(dir, 'package-lock.json'));
  const same = lock.equals(readFileSync(join(repo, 'package-lock.json')));
  const modules = same ? join(repo, 'node_modules') : await installed(dir, lock, modulesRoot);
  symlinkSync(modules, join(dir, 'node_modules'), 'dir');
}

/** node_modules for `lock` (and the package.json at `dir`), installed under `root` once per lock file. */
async function installed(dir, lock, root) {
  const home = join(root, `modules-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`);
  if (!existsSync(join(home, 'node_modules'))) {
    log(`  its package-lock.json differs from this checkout's: npm ci of it in ${home}`);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'package.json'), readFileSync(join(dir, 'package.json')));
    writeFileSync(join(home, 'package-lock.json'), lock);
    await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: home });
    mkdirSync(join(home, 'node_modules'), { recursive: true }); // npm makes none for a lock file without packages
  }
  return join(home, 'node_modules');
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
