/* global fetch */
// Resident memory over a long run: list requests in chunks against one server (the others stopped),
// with RSS and V8's used heap after each chunk.
import { log } from '../lib/log.mjs';
import { rssBytes } from '../lib/processes.mjs';
import { loadOnce } from '../lib/servers.mjs';

/**
 * Undefined when `memoryRequests` is 0; `growth` is from the 2nd mark (or the only one) to the last.
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
    const r = await loadOnce(server, 'list', { connections: config.connections, amount, latencies: false });
    total += amount;
    const metrics = await fetch(`${server.base}/metrics`).then((response) => response.text());
    const heapUsed = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
    marks.push({ requests: total, rss: rssBytes(server.pid), heapUsed, rps: r.rps, failed: r.non2xx + r.errors + r.timeouts });
    log(
      `  ${total.toLocaleString('en')}: RSS ${(marks.at(-1).rss / 2 ** 20).toFixed(1)} MiB, heap used ${(heapUsed / 2 ** 20).toFixed(1)} MiB, ${r.rps.toFixed(0)} req/s`,
    );
  }
  const second = marks[1] ?? marks[0];
  return {
    server: server.server,
    label: server.label,
    endpoint: server.targets.list.label,
    marks,
    growth: (marks.at(-1).rss - second.rss) / second.rss,
    seconds: (Date.now() - started) / 1000,
  };
}
