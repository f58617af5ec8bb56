import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutAt, removeCheckouts, resolveCommit } from '../../bench/lib/worktrees.mjs';

const LOCK = (name) =>
  JSON.stringify({ name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name, version: '1.0.0' } } });

/**
 * A throwaway repository with two commits of `pets.txt` on one package-lock.json, a third with
 * another lock file, and a node_modules folder of its own.
 */
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
    for (const [version, name] of [
      ['first', 'pets'],
      ['second', 'pets'],
      ['third', 'pets-renamed'],
    ]) {
      writeFileSync(join(repo, 'pets.txt'), version);
      writeFileSync(join(repo, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
      writeFileSync(join(repo, 'package-lock.json'), LOCK(name));
      git('add', '.');
      git('commit', '--quiet', '-m', version);
    }
    git('tag', 'third');
    git('checkout', '--quiet', 'HEAD~1');
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('resolves a revision to its commit, and names a revision that is none', async () => {
    await expect(resolveCommit(repo, 'HEAD~1')).resolves.toBe(git('rev-parse', 'HEAD~1'));
    await expect(resolveCommit(repo, 'no-such-rev')).rejects.toThrow('"no-such-rev" names no commit');
  });

  it('checks a commit out detached with the repository’s node_modules linked in, and removes it without a trace', async () => {
    const dir = join(tmp, 'ladder-1');
    await checkoutAt(repo, await resolveCommit(repo, 'HEAD~1'), dir, tmp);
    expect(readFileSync(join(dir, 'pets.txt'), 'utf8')).toBe('first');
    expect(readlinkSync(join(dir, 'node_modules'))).toBe(join(repo, 'node_modules'));
    expect(worktrees()).toHaveLength(2);

    writeFileSync(join(dir, 'pets.txt'), 'changed by the build');
    await removeCheckouts();
    expect(existsSync(dir)).toBe(false);
    expect(worktrees()).toEqual([`worktree ${repo}`]);
    expect(readFileSync(join(repo, 'pets.txt'), 'utf8')).toBe('second');
  });

  it('installs the packages of a commit whose lock file differs, once for every commit with that lock file', async () => {
    const [first, second] = [join(tmp, 'ladder-3'), join(tmp, 'ladder-4')];
    await checkoutAt(repo, await resolveCommit(repo, 'third'), first, tmp);
    await checkoutAt(repo, await resolveCommit(repo, 'third'), second, tmp);
    const modules = readlinkSync(join(first, 'node_modules'));
    expect(modules).not.toBe(join(repo, 'node_modules'));
    expect(modules.startsWith(join(tmp, 'modules-'))).toBe(true);
    expect(existsSync(modules)).toBe(true);
    expect(readlinkSync(join(second, 'node_modules'))).toBe(modules);
    await removeCheckouts();
  });

  it('forgets a checkout whose folder is already gone', async () => {
    const dir = join(tmp, 'ladder-2');
    await checkoutAt(repo, 'HEAD', dir, tmp);
    rmSync(dir, { recursive: true, force: true });
    await removeCheckouts();
    expect(worktrees()).toEqual([`worktree ${repo}`]);
  });
});
