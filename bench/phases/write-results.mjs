// The end of a run: the targets (MET / NOT MET / NOT MEASURED), the printed report, and the results
// written to bench/results/latest.json and its chart (and, unless BENCH_WRITE_DOCS=0, to
// docs/benchmarks.{json,svg,md}).
import { join } from 'node:path';
import { perRound } from '../lib/ladder-summary.mjs';
import { log } from '../lib/log.mjs';
import { loadAverages } from '../lib/machine.mjs';
import { ROOT } from '../lib/paths.mjs';
import { printReport, writeResults } from '../lib/report.mjs';

const fixed2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
const orUnmeasured = (n, met) => (Number.isFinite(n) ? met(n) : undefined);
/** Issue 10's CPU target, 0.30 ms per list request, over the 0.417 ms the service took when it was set. */
const CPU_RATIO_TARGET = Math.floor((0.3 / 0.417) * 100) / 100;

/**
 * Each target of issue 10 with what was measured against it; NOT MEASURED when the figure is
 * missing. Throughput and latency targets are medians of per-round ratios (drift cancels out);
 * "no slower than before" and the CPU ratio compare B with the ladder's first step, the service
 * before the work.
 */
export function evaluateTargets({ throughput, ratios, ladder, redis, deepPages, memory }, memoryChunk) {
  const targets = [];
  const target = (name, goal, measured, met) =>
    targets.push({ name, target: goal, measured, status: met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'NOT MET' });
  const peer = ratios.serviceVsPeer;
  const rps = peer?.rpsRatio.median;
  target(
    'list req/s, service / usual build',
    '≥ 1.50',
    fixed2(rps),
    orUnmeasured(rps, (n) => n >= 1.5),
  );
  const p99 = peer?.p99Ratio.median;
  target(
    'list p99, service / usual build',
    '≤ 1.00',
    fixed2(p99),
    orUnmeasured(p99, (n) => n <= 1),
  );
  const first = ladder?.[0]?.step;
  const row = (step) => step && throughput.find((r) => r.server === step.server && r.endpointKey === step.endpointKey);
  /** B against the ladder's first step on `endpointKey`: the median of the per-round ratios of `field`. */
  const vsBefore = (endpointKey, field) => {
    const now = ladder?.find((r) => r.server === 'postgres' && r.endpointKey === endpointKey);
    const before = ladder?.find((r) => r.step === first && r.endpointKey === endpointKey);
    return { endpoint: now?.endpoint ?? endpointKey, ratio: perRound(row(now), row(before), field)?.median };
  };
  const cpu = throughput.find((r) => r.server === 'postgres' && r.endpointKey === 'list')?.cpuMsPerRequest;
  target(
    'server CPU per list request (B)',
    '≤ 0.30 ms',
    Number.isFinite(cpu) ? `${cpu.toFixed(3)} ms` : 'n/a',
    orUnmeasured(cpu, (n) => n <= 0.3),
  );
  // The same target as a ratio, which the machine's drift cancels out of: issue 10 asked for
  // 0.30 ms when the service took 0.417: 0.719 of the CPU of the code before the work (0.71 here).
  const cpuRatio = vsBefore('list', 'cpuMsPerRequest').ratio;
  target(
    `server CPU per list request, now / ${first ?? 'before (BENCH_LADDER)'}`,
    `≤ ${CPU_RATIO_TARGET.toFixed(2)}`,
    fixed2(cpuRatio),
    orUnmeasured(cpuRatio, (n) => n <= CPU_RATIO_TARGET),
  );
  for (const endpointKey of ['get', 'create']) {
    const { endpoint, ratio } = vsBefore(endpointKey, 'rps');
    target(
      `${endpoint} req/s, now / ${first ?? 'before (BENCH_LADDER)'}`,
      '≥ 1.00',
      fixed2(ratio),
      orUnmeasured(ratio, (n) => n >= 1),
    );
  }
  const embedded = ratios.sqliteVsPostgres.list?.median;
  target(
    'list req/s, embedded default (SQLite, in process) / PostgreSQL + Redis',
    '≥ 1.00',
    fixed2(embedded),
    orUnmeasured(embedded, (n) => n >= 1),
  );
  const trips = redis?.monitor?.perRequest;
  target(
    'Redis round trips per request',
    '1',
    Number.isFinite(trips) ? trips.toFixed(3) : 'n/a',
    orUnmeasured(trips, (n) => Math.abs(n - 1) < 0.005),
  );
  for (const deep of deepPages.filter((d) => d.server === 'postgres')) {
    const worst = Math.max(deep.ratio, deep.statusRatio);
    target(
      `deep page p50 vs first page p50 (${deep.label}; unfiltered and status=available)`,
      '≤ 1.5',
      `${deep.ratio.toFixed(2)} and ${deep.statusRatio.toFixed(2)}`,
      worst <= 1.5,
    );
  }
  const growth = memory?.growth;
  target(
    `RSS growth, the lowest of each ${memoryChunk.toLocaleString('en')}-request chunk, from the 2nd chunk to the last`,
    '< 10 %',
    Number.isFinite(growth) ? `${(growth * 100).toFixed(1)} %` : 'n/a',
    orUnmeasured(growth, (n) => n < 0.1),
  );
  return targets;
}

/**
 * `measured` holds the phases' parts, in the report's order: throughput, ratios, ladder, sql, redis,
 * peerRedis, quota, deepPages, memory, profile. Returns the report.
 * @param {{ started: number, machine: any, config: any, servers: any[], seeds: any, measured: any, notes: string[], resultsDir: string }} options
 */
export async function writeReport({ started, machine, config, servers, seeds, measured, notes, resultsDir }) {
  machine.loadEnd = loadAverages();
  const report = {
    date: new Date().toISOString(),
    wallSeconds: Math.round((Date.now() - started) / 1000),
    machine,
    config,
    servers: servers.map((s) => ({ server: s.server, label: s.label, description: s.description })),
    seeds,
    ...measured,
    targets: evaluateTargets(measured, config.memoryChunk),
    notes,
  };
  printReport(report);
  await writeResults(report, { jsonFile: join(resultsDir, 'latest.json'), docsDir: config.writeDocs ? join(ROOT, 'docs') : undefined });
  log(
    `wrote bench/results/latest.{json,svg}${config.writeDocs ? ', docs/benchmarks.{json,svg} and docs/benchmarks.md' : ''}; ` +
      `${(report.wallSeconds / 60).toFixed(1)} min in all`,
  );
  return report;
}
