/* global fetch */
// Load over loopback with autocannon (used as a library), and a one-connection latency probe.
import http from 'node:http';
import autocannon from 'autocannon';
import { cpuMs } from './processes.mjs';
import { percentile } from './stats.mjs';

/**
 * @typedef {{ method: 'GET' | 'POST', path: string, headers?: Record<string, string>, body?: string }} Target
 * @typedef {{ requests: number, ok: number, non2xx: number, errors: number, timeouts: number, seconds: number,
 *             rps: number, p50: number, p99: number, cpuMsPerRequest: number | null }} LoadResult
 */

/**
 * Loads `base` + target for `seconds` (or `amount` requests) with `connections` keep-alive
 * connections. Throughput counts 2xx answers only; latency percentiles (ms, sub-millisecond
 * precision, 2xx only) come from autocannon's per-response timings, not its whole-ms histogram.
 * With `pid`, also the server's CPU time per request.
 * @param {{ base: string, target: Target, connections: number, seconds?: number, amount?: number, pid?: number, latencies?: boolean }} options
 * @returns {Promise<LoadResult>}
 */
export async function load({ base, target, connections, seconds, amount, pid, latencies = true }) {
  const samples = [];
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const instance = autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections,
    ...(amount ? { amount } : { duration: seconds }),
    timeout: 10,
  });
  if (latencies) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  }
  /** @type {any} */
  const result = await instance;
  const cpuAfter = pid ? cpuMs(pid) : 0;
  samples.sort((a, b) => a - b);
  const ok = result['2xx'];
  return {
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    rps: ok / result.duration,
    p50: latencies ? percentile(samples, 50) : result.latency.p50,
    p99: latencies ? percentile(samples, 99) : result.latency.p99,
    cpuMsPerRequest: pid && ok > 0 ? (cpuAfter - cpuBefore) / ok : null,
  };
}

/**
 * Sends `count` GET requests one after another over one keep-alive connection and returns their
 * latencies in ms (sorted): the cost of a request without any queueing behind others.
 * @param {{ base: string, path: string, headers: Record<string, string>, count: number }} options
 */
export async function sequentialLatencies({ base, path, headers, count }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(path, base);
  const times = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      const status = await new Promise((resolve, reject) => {
        const request = http.get(url, { agent, headers }, (response) => {
          response.on('data', () => undefined);
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        });
        request.on('error', reject);
      });
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

/** One GET, its status and JSON body (for checks before measuring). */
export async function getJson(base, path, headers = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  const text = await response.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}
