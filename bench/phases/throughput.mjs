// Throughput, latency and CPU per request: unmeasured warm-up rounds, then alternating rounds
// (endpoint by endpoint, every server in turn), summarised as medians over the rounds and as
// median per-round ratios (against the ceiling, limiter on / off, SQLite / PostgreSQL, B / P).
import { log } from '../lib/log.mjs';
import { serviceVsPeer, serviceVsPeerLines } from '../lib/peer.mjs';
import { withCpuBreakdown } from '../lib/processes.mjs';
import { roundOrder } from '../lib/round-order.mjs';
import { loadOnce } from '../lib/servers.mjs';
import { median } from '../lib/stats.mjs';

/** @typedef {import('../lib/load.mjs').LoadResult & { foreignCpu: number, storesCpuMsPerRequest: number, generatorCpuMsPerRequest: number, attempts: number }} RoundResult */

/**
 * One measured load of `server`'s endpoint `name`. A run during which other work on the machine
 * kept more than `maxForeignCpu` CPUs busy is repeated (at most `retries` times); the least
 * disturbed attempt counts.
 * @returns {Promise<RoundResult>}
 */
async function measuredRun(server, name, config) {
  let best;
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    const { result, foreignCpu, storesMs, generatorMs } = await withCpuBreakdown([server.pid], () =>
      loadOnce(server, name, { connections: config.connections, seconds: config.durationS }),
    );
    const perRequest = (ms) => (result.ok > 0 ? ms / result.ok : NaN);
    if (!best || foreignCpu < best.foreignCpu) {
      best = {
        ...result,
        foreignCpu,
        storesCpuMsPerRequest: perRequest(storesMs),
        generatorCpuMsPerRequest: perRequest(generatorMs),
        attempts: attempt + 1,
      };
    }
    if (foreignCpu <= config.maxForeignCpu) break;
    log(`  (other work used ${foreignCpu.toFixed(2)} CPUs meanwhile: repeating)`);
  }
  return best;
}

const roundRatios = (a, b) => (a && b ? a.map((run, i) => run.rps / b[i].rps) : []);
const summary = (values) => ({ median: median(values), rounds: values });

/** The throughput table's rows: per server and endpoint, medians over the rounds and the rounds. */
function throughputRows(servers, runs) {
  const ceilingRuns = runs['ceiling:list'] ?? [];
  return servers.flatMap((server) =>
    server.endpoints.map((name) => {
      const list = runs[`${server.server}:${name}`];
      return {
        server: server.server,
        label: server.label,
        endpointKey: name,
        endpoint: server.targets[name].label,
        rps: median(list.map((r) => r.rps)),
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        cpuMsPerRequest: median(list.map((r) => r.cpuMsPerRequest ?? NaN)),
        storesCpuMsPerRequest: median(list.map((r) => r.storesCpuMsPerRequest)),
        generatorCpuMsPerRequest: median(list.map((r) => r.generatorCpuMsPerRequest)),
        vsCeiling: name === 'list' ? median(roundRatios(list, ceilingRuns)) : undefined,
        non2xx: list.reduce((s, r) => s + r.non2xx, 0),
        errors: list.reduce((s, r) => s + r.errors + r.timeouts, 0),
        foreignCpu: median(list.map((r) => r.foreignCpu)),
        rounds: list.map((r) => ({
          rps: r.rps,
          p50: r.p50,
          p99: r.p99,
          cpuMsPerRequest: r.cpuMsPerRequest,
          storesCpuMsPerRequest: r.storesCpuMsPerRequest,
          generatorCpuMsPerRequest: r.generatorCpuMsPerRequest,
          foreignCpu: r.foreignCpu,
          attempts: r.attempts,
        })),
      };
    }),
  );
}

/** The median per-round ratios; those of servers that did not run are undefined or empty. */
function ratioSummaries(servers, runs) {
  const pgServer = servers.find((s) => s.server === 'postgres');
  const ceilingRuns = runs['ceiling:list'] ?? [];
  const ratios = {
    serviceVsPeer: servers.some((s) => s.server === 'peer') ? serviceVsPeer(runs['postgres:list'], runs['peer:list']) : undefined,
    pgListVsCeiling: pgServer ? summary(roundRatios(runs['postgres:list'], ceilingRuns)) : undefined,
    sqliteListVsCeiling: summary(roundRatios(runs['sqlite:list'], ceilingRuns)),
    limiterOnVsOff: {},
    sqliteVsPostgres: {},
  };
  if (pgServer) {
    for (const name of pgServer.endpoints) {
      ratios.limiterOnVsOff[name] = summary(roundRatios(runs[`postgres:${name}`], runs[`limiter-off:${name}`]));
      ratios.sqliteVsPostgres[name] = summary(roundRatios(runs[`sqlite:${name}`], runs[`postgres:${name}`]));
    }
  }
  return ratios;
}

/**
 * @param {{ servers: any[], config: { warmupRounds: number, rounds: number, durationS: number, connections: number, retries: number, maxForeignCpu: number } }} options
 */
export async function measureThroughput({ servers, config }) {
  for (let round = 1; round <= config.warmupRounds; round++) {
    log(`warm-up round ${round}/${config.warmupRounds} (not measured)`);
    for (const server of servers) {
      for (const name of server.endpoints) await loadOnce(server, name, { connections: config.connections, seconds: config.durationS });
    }
  }

  /** @type {Record<string, RoundResult[]>} */
  const runs = {};
  // Endpoint by endpoint, every server in turn (A B C D on the list, then B C D on the next…), so
  // the runs a ratio compares (B and D for the limiter, A and B for the ceiling) are close in time;
  // every other round in the reverse order (bench/lib/round-order.mjs).
  const endpointOrder = [...new Set(servers.flatMap((s) => s.endpoints))];
  for (let round = 1; round <= config.rounds; round++) {
    const order = roundOrder(servers, round);
    log(`round ${round}/${config.rounds} (${endpointOrder.join(', ')}; ${order.map((s) => s.server).join(' ')})`);
    for (const name of endpointOrder) {
      for (const server of order.filter((s) => s.endpoints.includes(name))) {
        const r = await measuredRun(server, name, config);
        (runs[`${server.server}:${name}`] ??= []).push(r);
        log(
          `  ${server.label.padEnd(24)} ${server.targets[name].label.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  ` +
            `p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  CPU ms/req: server ${r.cpuMsPerRequest?.toFixed(3)}, ` +
            `stores ${r.storesCpuMsPerRequest.toFixed(3)}, autocannon ${r.generatorCpuMsPerRequest.toFixed(3)}; others ${r.foreignCpu.toFixed(2)} CPUs`,
        );
      }
    }
  }

  const throughput = throughputRows(servers, runs);
  const ratios = ratioSummaries(servers, runs);
  if (ratios.serviceVsPeer) for (const line of serviceVsPeerLines(ratios.serviceVsPeer)) log(line);
  return { throughput, ratios };
}
