// One load of one server's endpoint over loopback with autocannon (as a library, in this process).
import autocannon from 'autocannon';
import { cpuMs } from './processes.mjs';
import { percentile } from './stats.mjs';

/**
 * Loads `base` + `target.path` with `connections` keep-alive connections for `seconds`. Only 2xx
 * answers count: req/s, and p50/p99 in ms from autocannon's per-response timings (its histogram
 * rounds to whole ms); `cpu` is the server's (`pid`) user + system CPU ms per answered request.
 * @param {{ base: string, target: { method: string, path: string, headers: Record<string, string>, body?: string },
 *           connections: number, seconds: number, pid: number }} options
 * @returns {Promise<{ rps: number, p50: number, p99: number, cpu: number, failed: number }>}
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
  const cpu = cpuMs(pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu: ok > 0 ? cpu / ok : NaN,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}
