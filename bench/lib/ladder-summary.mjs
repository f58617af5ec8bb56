// What each change bought: every step of the ladder (bench/lib/ladder.mjs), then B, against the
// step before it and against P, round by round, from the throughput phase's rows.
import { num, ratioRange } from './format.mjs';
import { spread } from './stats.mjs';

/** What the report says when no ladder ran. */
export const LADDER_HOWTO =
  'Not measured in this run. Name earlier commits of the service, oldest first, as `BENCH_LADDER=<git-rev>=<label>,…` ' +
  "(for example `BENCH_LADDER='b80dfde=before,HEAD~1=+page cache' npm run bench`): each is checked out in its own worktree, built, " +
  'and loaded as B in the same rounds, and this table shows each against the one before and against P.';

/** Per round, `field` of `a` over `b`'s (median and range); undefined when either did not run. */
export const perRound = (a, b, field) => (a && b ? spread(a.rounds.map((round, i) => round[field] / b.rounds[i][field])) : undefined);

/**
 * What each change bought: per endpoint (B's, which every step serves), one row per step in order
 * (the ladder's, then B as this checkout builds it) with its medians over the rounds, and the median
 * and range of its per-round req/s and p99 ratios to the step before and to P (the list only: P
 * serves nothing else).
 * Undefined when no ladder ran.
 * @param {any[]} throughput the throughput phase's rows
 * @param {any[]} ladder the ladder's server definitions
 */
export function whatEachChangeBought(throughput, ladder) {
  if (ladder.length === 0) return undefined;
  const row = (server, endpointKey) => throughput.find((r) => r.server === server && r.endpointKey === endpointKey);
  const steps = [
    ...ladder.map((d) => ({ server: d.server, step: d.step.label, commit: d.step.commit })),
    { server: 'postgres', step: 'now (B)', commit: 'this checkout' },
  ];
  return ladder[0].endpoints.flatMap((endpointKey) =>
    steps.map(({ server, step, commit }, i) => {
      const current = row(server, endpointKey);
      const previous = i > 0 ? row(steps[i - 1].server, endpointKey) : undefined;
      const peer = row('peer', endpointKey);
      return {
        step,
        commit,
        server,
        endpointKey,
        endpoint: current.endpoint,
        rps: current.rps,
        p50: current.p50,
        p99: current.p99,
        cpuMsPerRequest: current.cpuMsPerRequest,
        vsPrevious: { rps: perRound(current, previous, 'rps'), p99: perRound(current, previous, 'p99') },
        vsPeer: { rps: perRound(current, peer, 'rps'), p99: perRound(current, peer, 'p99') },
      };
    }),
  );
}

export const LADDER_HEAD = [
  'step',
  'commit',
  'endpoint',
  'req/s',
  'p50 ms',
  'p99 ms',
  'server CPU ms/req',
  'req/s vs previous',
  'p99 vs previous',
  'req/s vs P',
  'p99 vs P',
];

/** The rows of whatEachChangeBought as table cells; a ratio is "median (lowest–highest round)". */
export const ladderCells = (rows) =>
  rows.map((row) => [
    row.step,
    row.commit,
    row.endpoint,
    num(row.rps),
    num(row.p50, 2),
    num(row.p99, 2),
    num(row.cpuMsPerRequest, 3),
    ratioRange(row.vsPrevious.rps),
    ratioRange(row.vsPrevious.p99),
    ratioRange(row.vsPeer.rps),
    ratioRange(row.vsPeer.p99),
  ]);
