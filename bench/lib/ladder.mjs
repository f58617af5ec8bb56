// The ladder of builds (BENCH_LADDER): earlier states of the service, each checked out in its own
// worktree, built, and run as "B at that commit" (B's database, Redis and key, its own Redis key
// prefix) in the same alternating rounds as B and P. ladder-summary.mjs says what each step bought.
import { join } from 'node:path';
import { log } from './log.mjs';
import { run } from './processes.mjs';
import { SERVICE_PREFIX } from './servers.mjs';
import { checkoutAt, resolveCommit } from './worktrees.mjs';

/**
 * BENCH_LADDER: comma-separated `<git-rev>=<label>` entries, oldest first; empty for none.
 * @param {string} spec
 * @returns {{ rev: string, label: string }[]}
 */
export function parseLadder(spec) {
  return spec
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('=');
      const rev = entry.slice(0, Math.max(0, at)).trim();
      const label = entry.slice(at + 1).trim();
      if (at < 0 || !rev || !label) throw new Error(`BENCH_LADDER: "${entry}" is not <git-rev>=<label>`);
      return { rev, label };
    });
}

/**
 * Checks out each step of `repo` under `tmp` (removed by worktrees.mjs's removeCheckouts), builds it
 * (`tsc -p tsconfig.build.json`) and returns its server: `service` (B's definition, the same
 * endpoints) run from there, with its own Redis key prefix so its counters never mix with B's.
 * @param {{ steps: { rev: string, label: string }[], repo: string, service: any, tmp: string }} options
 */
export async function ladderDefinitions({ steps, repo, service, tmp }) {
  // Every revision first, so a misspelt one stops the run before anything is built.
  const commits = [];
  for (const step of steps) commits.push(await resolveCommit(repo, step.rev));
  const definitions = [];
  for (const [index, step] of steps.entries()) {
    const n = index + 1;
    const full = commits[index];
    const commit = full.slice(0, 7);
    const dir = join(tmp, `ladder-${n}`);
    log(`ladder step ${n} (${step.label}): ${step.rev} = ${commit}, building in ${dir}`);
    await checkoutAt(repo, full, dir, tmp);
    await run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: dir });
    definitions.push({
      ...service,
      server: `ladder-${n}`,
      label: `L${n} ${step.label}`,
      description: `the service at ${step.rev} (${commit}) as B: B’s database, Redis and key`,
      step: { ...step, commit },
      cwd: dir,
      env: { ...service.env, REDIS_KEY_PREFIX: `${SERVICE_PREFIX}ladder-${n}:` },
    });
  }
  return definitions;
}

/** The servers in measuring order (reversed every other round): the ladder's steps right before B, so each step, B and P run seconds apart. */
export const withLadder = (definitions, ladder) => definitions.flatMap((d) => (d.server === 'postgres' ? [...ladder, d] : [d]));
