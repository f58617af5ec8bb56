// Redis round trips per list request, of B and of the usual build: MONITOR on the server's own
// connections, then INFO commandstats (which also counts every other client of a shared Redis).
import { log } from '../lib/log.mjs';
import { commandstatsRoundTrips, LIMITER_SCRIPT_COMMANDS, monitorRoundTrips, THROTTLER_SCRIPT_COMMANDS } from '../lib/redis-calls.mjs';
import { loadOnce } from '../lib/servers.mjs';

async function countRoundTrips({ server, insideScript, redisUrl, config, notes }) {
  log(`${server.label}: Redis round trips per list request (MONITOR over ${config.redisRequests} requests, then INFO commandstats)`);
  const batch = async () =>
    (await loadOnce(server, 'list', { connections: config.connections, amount: config.redisRequests, latencies: false })).ok;
  const monitor = await monitorRoundTrips({ url: redisUrl, pid: server.pid, batch });
  const commandstats = await commandstatsRoundTrips({ url: redisUrl, batch, insideScript });
  log(`  MONITOR ${monitor.perRequest.toFixed(3)}, commandstats ${commandstats.perRequest.toFixed(3)} per request`);
  if (commandstats.perRequest > monitor.perRequest + 0.01) {
    notes.push(
      `${server.label}: INFO commandstats counted ${commandstats.perRequest.toFixed(3)} calls per request against MONITOR's ${monitor.perRequest.toFixed(3)}: ` +
        `other clients of the shared Redis were busy meanwhile (${JSON.stringify(commandstats.delta)}); the MONITOR figure only counts the server's connections.`,
    );
  }
  return { monitor, commandstats };
}

/**
 * `service` is B and `peer` the usual build (either may be undefined); `redisVersion` is undefined
 * when Redis does not answer. Returns `redis` (B's counts, or why they were skipped) and
 * `peerRedis` (the usual build's, when it ran).
 * @param {{ service?: any, peer?: any, redisUrl: string, redisVersion?: string, config: { redisRequests: number, connections: number }, notes: string[] }} options
 */
export async function measureRedisRoundTrips({ service, peer, redisUrl, redisVersion, config, notes }) {
  if (!service || !redisVersion) return { redis: { skipped: redisVersion ? 'no PostgreSQL server' : 'no Redis' }, peerRedis: undefined };
  const redis = await countRoundTrips({ server: service, insideScript: LIMITER_SCRIPT_COMMANDS, redisUrl, config, notes });
  const peerRedis = peer
    ? await countRoundTrips({ server: peer, insideScript: THROTTLER_SCRIPT_COMMANDS, redisUrl, config, notes })
    : undefined;
  return { redis, peerRedis };
}
