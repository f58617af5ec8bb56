import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutAt, removeCheckouts, resolveCommit } from '../../bench/lib/worktrees.mjs';

/** A throwaway repository with two commits of `pets.txt`, and a node_modules folder of its own. */
describe('worktrees (the ladder’s checkouts)', () => {
  let tmp = '';
  let repo = '';
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repo })
      .toString()
      .trim();
  const worktrees = () =>
    git('worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '));

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'bench-worktrees-'));
    repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'node_modules'), { recursive: true });
    git('init', '--quiet');
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
    for (const version of ['first', 'second']) {
      writeFileSync(join(repo, 'pets.txt'), version);
      git('add', '.');
      git('commit', '--quiet', '-m', version);
    }
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('resolves a revision to its commit, and names a revision that is none', async () => {
    await expect(resolveCommit(repo, 'HEAD~1')).resolves.toBe(git('rev-parse', 'HEAD~1'));
    await expect(resolveCommit(repo, 'no-such-rev')).rejects.toThrow('"no-such-rev" names no commit');
  });

  it('checks a commit out detached with the repository’s node_modules linked in, and removes it without a trace', async () => {
    const dir = join(tmp, 'ladder-1');
    await checkoutAt(repo, await resolveCommit(repo, 'HEAD~1'), dir);
    expect(readFileSync(join(dir, 'pets.txt'), 'utf8')).toBe('first');
    expect(readlinkSync(join(dir, 'node_modules'))).toBe(join(repo, 'node_modules'));
    expect(worktrees()).toHaveLength(2);

    writeFileSync(join(dir, 'pets.txt'), 'changed by the build');
    await removeCheckouts();
    expect(existsSync(dir)).toBe(false);
    expect(worktrees()).toEqual([`worktree ${repo}`]);
    expect(readFileSync(join(repo, 'pets.txt'), 'utf8')).toBe('second');
  });

  it('forgets a checkout whose folder is already gone', async () => {
    const dir = join(tmp, 'ladder-2');
    await checkoutAt(repo, 'HEAD', dir);
    rmSync(dir, { recursive: true, force: true });
    await removeCheckouts();
    expect(worktrees()).toEqual([`worktree ${repo}`]);
  });
});
