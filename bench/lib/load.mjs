// One load of one server's endpoint over loopback with autocannon (as a library, in this process).
import autocannon from 'autocannon';
import { cpuMs } from './processes.mjs';
import { percentile } from './stats.mjs';

/**
 * @typedef {{ ok: number, seconds: number, cpuMs: number, failed: number, latencies: number[] }} Slice
 *   what one load saw: 2xx answers, its length, the server's CPU over it, the other answers, the 2xx timings in ms
 */

/**
 * Loads `base` + `target.path` with `connections` keep-alive connections for `seconds` (a fraction
 * of a second is fine); `pid` is the server's, whose user + system CPU is read around the load.
 * @param {{ base: string, target: { method: string, path: string, headers: Record<string, string>, body?: string },
 *           connections: number, seconds: number, pid: number }} options
 * @returns {Promise<Slice>}
 */
export async function load({ base, target, connections, seconds, pid }) {
  const latencies = [];
  const cpuBefore = cpuMs(pid);
  const instance = autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
    timeout: 10,
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  /** @type {any} */
  const result = await instance;
  return {
    ok: result['2xx'],
    seconds: result.duration,
    cpuMs: cpuMs(pid) - cpuBefore,
    failed: result.non2xx + result.errors + result.timeouts,
    latencies,
  };
}

/**
 * One server's figures over the slices of its load: only 2xx answers count; req/s over the slices'
 * time; p50/p99 in ms over all their timings (autocannon's histogram rounds to whole ms); `cpu`, the
 * server's CPU ms per answered request.
 * @param {Slice[]} slices
 * @returns {{ rps: number, p50: number, p99: number, cpu: number, failed: number }}
 */
export function summarise(slices) {
  const sum = (pick) => slices.reduce((total, slice) => total + pick(slice), 0);
  const ok = sum((s) => s.ok);
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return {
    rps: ok / sum((s) => s.seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu: ok > 0 ? sum((s) => s.cpuMs) / ok : NaN,
    failed: sum((s) => s.failed),
  };
}
