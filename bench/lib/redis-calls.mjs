// Redis round trips per request, two ways:
//  - MONITOR over a small batch, counting only the lines that come from the server's own
//    connections (found through /proc) and are not tagged `lua` (commands a script runs inside
//    Redis): exact, and blind to other clients of a shared Redis;
//  - INFO commandstats deltas over a batch: script calls (EVALSHA, EVAL, …) plus every other
//    command except those the server's script runs inside Redis (the service's limiter: TIME,
//    GET of the data generation, HMGET, HSET, PEXPIREAT; the usual build's throttler: INCR, PTTL,
//    PEXPIRE, GET, SET, DEL);
//    counts every client of the Redis, so other users inflate it.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

const SCRIPT_CALLS = ['evalsha', 'evalsha_ro', 'eval', 'eval_ro', 'fcall', 'fcall_ro'];
/** What src/rate-limit/limiter.script.ts runs inside Redis; counted by commandstats, not a round trip. */
export const LIMITER_SCRIPT_COMMANDS = ['time', 'get', 'hmget', 'hset', 'pexpireat'];
/** What bench/peers/usual-build/redis-throttler.storage.ts's script runs inside Redis. */
export const THROTTLER_SCRIPT_COMMANDS = ['incr', 'pttl', 'pexpire', 'get', 'set', 'del'];

export async function redisReachable(url) {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.info('server')).match(/redis_version:(\S+)/)?.[1] ?? 'unknown';
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

/** Local ports of the TCP connections process `pid` holds to `remotePort`. */
export function connectionPorts(pid, remotePort) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      const remote = fields[2];
      const inode = fields[9];
      if (!inodes.has(inode)) continue;
      if (parseInt(remote.split(':')[1], 16) !== remotePort) continue;
      ports.add(parseInt(local.split(':')[1], 16));
    }
  }
  return ports;
}

/**
 * Runs `batch` (which sends the requests and resolves with how many succeeded) under MONITOR and
 * counts what the server at `pid` sent to Redis.
 * @param {{ url: string, pid: number, batch: () => Promise<number> }} options
 */
export async function monitorRoundTrips({ url, pid, batch }) {
  const redisPort = Number(new URL(url).port || 6379);
  const ports = connectionPorts(pid, redisPort);
  if (ports.size === 0) throw new Error(`the server (pid ${pid}) holds no connection to Redis port ${redisPort}`);
  const redis = new Redis(url, { maxRetriesPerRequest: 0 });
  const monitor = await redis.monitor();
  /** @type {Record<string, number>} */
  const commands = {};
  let roundTrips = 0;
  let insideScripts = 0;
  monitor.on('monitor', (_time, args, source) => {
    if (source === 'lua') {
      insideScripts += 1;
      return;
    }
    const port = Number(String(source).split(':').pop());
    if (!ports.has(port)) return;
    roundTrips += 1;
    const name = String(args[0]).toLowerCase();
    commands[name] = (commands[name] ?? 0) + 1;
  });
  try {
    await sleep(200);
    const requests = await batch();
    await sleep(500);
    return { method: 'MONITOR', requests, roundTrips, perRequest: roundTrips / requests, commands, insideScriptsAnyClient: insideScripts };
  } finally {
    monitor.disconnect();
    redis.disconnect();
  }
}

function commandCalls(info) {
  /** @type {Record<string, number>} */
  const calls = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls[match[1].toLowerCase()] = Number(match[2]);
  return calls;
}

/**
 * INFO commandstats before and after `batch`; `insideScript` names the commands the server's
 * script runs inside Redis, which are not round trips.
 * @param {{ url: string, batch: () => Promise<number>, insideScript: string[] }} options
 */
export async function commandstatsRoundTrips({ url, batch, insideScript }) {
  const redis = new Redis(url, { maxRetriesPerRequest: 0 });
  try {
    const before = commandCalls(await redis.info('commandstats'));
    const requests = await batch();
    const after = commandCalls(await redis.info('commandstats'));
    /** @type {Record<string, number>} */
    const delta = {};
    for (const [name, calls] of Object.entries(after)) {
      const d = calls - (before[name] ?? 0);
      if (d > 0) delta[name] = d;
    }
    // The first INFO is counted in the second snapshot.
    if (delta.info) delta.info -= 1;
    const scriptCalls = SCRIPT_CALLS.reduce((sum, name) => sum + (delta[name] ?? 0), 0);
    const otherCalls = Object.entries(delta)
      .filter(([name]) => !SCRIPT_CALLS.includes(name) && !insideScript.includes(name))
      .reduce((sum, [, calls]) => sum + calls, 0);
    return {
      method: 'INFO commandstats',
      requests,
      scriptCalls,
      otherCalls,
      perRequest: (scriptCalls + otherCalls) / requests,
      delta,
    };
  } finally {
    redis.disconnect();
  }
}
