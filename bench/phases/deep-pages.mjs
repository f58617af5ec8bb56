// First page versus a deep page (after 99 % of the seeded animals), unfiltered and by status:
// sequential requests over one connection, alternating in blocks, so the pages' costs compare.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getJson, sequentialLatencies } from '../lib/load.mjs';
import { log } from '../lib/log.mjs';
import { percentile } from '../lib/stats.mjs';
import { ROOT } from '../lib/paths.mjs';

const BLOCKS = 5;

/** p50 and p99 of the latencies (ms), by the benchmark's one percentile rule. */
function latencyStats(values) {
  const sorted = values.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function measureServer(server, { deepAfter, requests, encodeCursor, notes }) {
  const headers = server.targets.list.headers;
  const pages = {
    first: '/v1/pets?limit=20',
    deep: `/v1/pets?limit=20&cursor=${encodeCursor({ after: deepAfter, status: null })}`,
    firstStatus: '/v1/pets?limit=20&status=available',
    deepStatus: `/v1/pets?limit=20&status=available&cursor=${encodeCursor({ after: deepAfter, status: 'available' })}`,
  };
  const check = await getJson(server.base, pages.deep, headers);
  if (check.status !== 200 || !Array.isArray(check.body) || check.body.length !== 20) {
    throw new Error(
      `${server.label}: the deep page did not answer 20 animals (${check.status} ${JSON.stringify(check.body).slice(0, 200)})`,
    );
  }
  if (check.body[0]?.id !== deepAfter + 1)
    notes.push(`${server.label}: the deep page starts at id ${check.body[0]?.id}, not ${deepAfter + 1}.`);
  log(`${server.label}: first versus deep page, ${requests} sequential requests each, alternating`);
  const samples = { first: [], deep: [], firstStatus: [], deepStatus: [] };
  const perBlock = Math.ceil(requests / BLOCKS);
  for (const path of Object.values(pages)) await sequentialLatencies({ base: server.base, path, headers, count: 50 });
  for (let block = 0; block < BLOCKS; block++) {
    for (const [kind, path] of Object.entries(pages)) {
      samples[kind].push(...(await sequentialLatencies({ base: server.base, path, headers, count: perBlock })));
    }
  }
  const deep = {
    server: server.server,
    label: server.label,
    after: deepAfter,
    requestsEach: perBlock * BLOCKS,
    first: latencyStats(samples.first),
    deep: latencyStats(samples.deep),
    firstStatus: latencyStats(samples.firstStatus),
    deepStatus: latencyStats(samples.deepStatus),
  };
  deep.ratio = deep.deep.p50 / deep.first.p50;
  deep.statusRatio = deep.deepStatus.p50 / deep.firstStatus.p50;
  log(
    `  p50 first ${deep.first.p50.toFixed(2)} ms, deep ${deep.deep.p50.toFixed(2)} ms; status first ${deep.firstStatus.p50.toFixed(2)}, deep ${deep.deepStatus.p50.toFixed(2)}`,
  );
  return deep;
}

/**
 * One entry per server (B and C, those that run), none when `deepRequests` is 0.
 * @param {{ servers: any[], config: { seedCount: number, deepRequests: number }, notes: string[] }} options
 */
export async function measureDeepPages({ servers, config, notes }) {
  if (config.deepRequests === 0) return [];
  const { encodeCursor } = await import(pathToFileURL(join(ROOT, 'dist/src/common/pagination/cursor.js')).href);
  // The id the deep page starts after: 990,000 of 1,000,000.
  const deepAfter = Math.floor(config.seedCount * 0.99);
  const deepPages = [];
  for (const server of servers)
    deepPages.push(await measureServer(server, { deepAfter, requests: config.deepRequests, encodeCursor, notes }));
  return deepPages;
}
