// The end of a run: the targets (MET / NOT MET / NOT MEASURED), the printed report, and the results
// written to bench/results/latest.json and its chart (and, unless BENCH_WRITE_DOCS=0, to
// docs/benchmarks.{json,svg,md}).
import { join } from 'node:path';
import { log } from '../lib/log.mjs';
import { loadAverages } from '../lib/machine.mjs';
import { ROOT } from '../lib/paths.mjs';
import { printReport, writeResults } from '../lib/report.mjs';

/** Each target with what was measured against it; NOT MEASURED when the figure is missing. */
function evaluateTargets({ ratios, redis, sql, deepPages, memory }, memoryChunk) {
  const targets = [];
  const target = (name, goal, measured, met) =>
    targets.push({ name, target: goal, measured, status: met === undefined ? 'NOT MEASURED' : met ? 'MET' : 'NOT MET' });
  const pgList = ratios.pgListVsCeiling?.median;
  target(
    'list throughput, PostgreSQL + Redis vs the ceiling',
    '≥ 0.70',
    Number.isFinite(pgList) ? pgList.toFixed(2) : 'n/a',
    Number.isFinite(pgList) ? pgList >= 0.7 : undefined,
  );
  const limiter = ratios.limiterOnVsOff.list?.median;
  target(
    'limiter cost (list throughput, limiter on vs off)',
    '≤ 10 %',
    Number.isFinite(limiter) ? `${((1 - limiter) * 100).toFixed(1)} % (on/off ${limiter.toFixed(2)})` : 'n/a',
    Number.isFinite(limiter) ? limiter >= 0.9 : undefined,
  );
  const trips = redis?.monitor?.perRequest;
  target(
    'Redis round trips per request',
    '1',
    Number.isFinite(trips) ? trips.toFixed(3) : 'n/a',
    Number.isFinite(trips) ? Math.abs(trips - 1) < 0.005 : undefined,
  );
  const statements = sql?.perRequest;
  target(
    'SQL statements per list request',
    '1 (cache refreshes every 4-5 s allowed: < 1.01)',
    Number.isFinite(statements) ? statements.toFixed(3) : 'n/a',
    Number.isFinite(statements) ? statements >= 0.995 && statements < 1.01 : undefined,
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
    `RSS growth from the 2nd to the last ${memoryChunk.toLocaleString('en')}-request mark`,
    '< 10 %',
    Number.isFinite(growth) ? `${(growth * 100).toFixed(1)} %` : 'n/a',
    Number.isFinite(growth) ? growth < 0.1 : undefined,
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
