import { spawnSync } from 'node:child_process';

/**
 * A user clones the repository alone: nothing in it may read or link the owners' hand-over folder
 * that sits beside our own checkouts. Only CI's script looks there, to notice a changed contract
 * (it compares the owners' copies with docs/contract/).
 */
describe('the repository is self-contained', () => {
  const OWNERS_FOLDER = ['..', 'shared'].join('/');

  it(`no tracked file but .ci/run refers to ${OWNERS_FOLDER}`, () => {
    const grep = spawnSync('git', ['grep', '--files-with-matches', '--fixed-strings', OWNERS_FOLDER, '--', '.', ':!.ci/run'], {
      encoding: 'utf8',
    });
    // git grep exits 1 when nothing matches, 0 with the matching files, and 128 outside a checkout.
    expect({ status: grep.status, files: grep.stdout.trim().split('\n').filter(Boolean) }).toEqual({ status: 1, files: [] });
  });
});
