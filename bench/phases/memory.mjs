/* global fetch */
// Resident memory over a long run: list requests in chunks against one server (the others stopped),
// with RSS and V8's used heap after each chunk, and the lowest RSS during each. Between two garbage
// collections the heap fills and RSS rises with it (by 50 MiB and more under this load), so an RSS
// taken at one moment depends on where the collector happens to be: the run's growth compares the
// lowest RSS of each chunk (sampled every SAMPLE_MS), which only rises when memory is kept.
import { clearInterval, setInterval } from 'node:timers';
import { log } from '../lib/log.mjs';
import { rssBytes } from '../lib/processes.mjs';
import { loadOnce } from '../lib/servers.mjs';

const SAMPLE_MS = 250;

/** Runs `work` while sampling the RSS of `pid`: its result and the lowest and highest RSS seen. */
async function withRssRange(pid, work) {
  let low = rssBytes(pid);
  let high = low;
  const sampler = setInterval(() => {
    const rss = rssBytes(pid);
    low = Math.min(low, rss);
    high = Math.max(high, rss);
  }, SAMPLE_MS);
  try {
    return { result: await work(), low, high };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * How much the lowest RSS of a chunk grew, from the 2nd chunk (or the only one) to the last: the
 * first chunk is left out, as it includes the heap's growth to its working size.
 * @param {Array<{ rssLow: number }>} marks
 */
export function memoryGrowth(marks) {
  const second = marks[1] ?? marks[0];
  return (marks.at(-1).rssLow - second.rssLow) / second.rssLow;
}

/**
 * Undefined when `memoryRequests` is 0; `growth` is that of the lowest RSS of a chunk, from the 2nd
 * chunk (or the only one) to the last.
 * @param {{ server: any, config: { memoryRequests: number, memoryChunk: number, connections: number } }} options
 */
export async function measureMemory({ server, config }) {
  if (config.memoryRequests === 0) return undefined;
  const marks = [];
  const chunks = Math.ceil(config.memoryRequests / config.memoryChunk);
  log(
    `memory: ${config.memoryRequests.toLocaleString('en')} list requests against ${server.label} in chunks of ${config.memoryChunk.toLocaleString('en')}`,
  );
  let total = 0;
  const started = Date.now();
  for (let chunk = 0; chunk < chunks; chunk++) {
    const amount = Math.min(config.memoryChunk, config.memoryRequests - total);
    const {
      result: r,
      low,
      high,
    } = await withRssRange(server.pid, () => loadOnce(server, 'list', { connections: config.connections, amount, latencies: false }));
    total += amount;
    const metrics = await fetch(`${server.base}/metrics`).then((response) => response.text());
    const heapUsed = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
    const rss = rssBytes(server.pid);
    marks.push({ requests: total, rss, rssLow: low, rssHigh: high, heapUsed, rps: r.rps, failed: r.non2xx + r.errors + r.timeouts });
    const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    log(
      `  ${total.toLocaleString('en')}: RSS ${mib(rss)} (${mib(low)} to ${mib(high)} during the chunk), heap used ${mib(heapUsed)}, ${r.rps.toFixed(0)} req/s`,
    );
  }
  return {
    server: server.server,
    label: server.label,
    endpoint: server.targets.list.label,
    marks,
    growth: memoryGrowth(marks),
    seconds: (Date.now() - started) / 1000,
  };
}
