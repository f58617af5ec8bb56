// What a caller over its quota sees, on the service (B) and on the usual build (P): a free key each
// driven over its minute quota, and a key whose day quota is below its minute quota.
import { Redis } from 'ioredis';
import { createKey } from '../lib/keys.mjs';
import { log } from '../lib/log.mjs';
import { peerCounters, quotaLines, serviceCounters } from '../lib/peer.mjs';
import { compareQuotas } from '../lib/quota-probe.mjs';
import { PEER_PREFIX, SERVICE_PREFIX } from '../lib/servers.mjs';

/** Plans of the probes' keys. */
const FREE = { args: ['--plan', 'free'], perMinute: 60 };
const SMALL_DAY = { args: ['--plan', 'enterprise', '--per-minute', '100', '--per-day', '3'], perDay: 3 };

/**
 * `service` is B, `peer` the usual build, both on `databaseUrl` and `redisUrl`.
 * @param {{ service: any, peer: any, databaseUrl: string, redisUrl: string }} options
 */
export async function probeQuotas({ service, peer, databaseUrl, redisUrl }) {
  log('quota probes: a free key each over its minute quota, and a key whose day quota (3) is below its minute quota');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let quota;
  try {
    quota = await compareQuotas({
      createKey: (plan) => createKey(databaseUrl, plan),
      servers: [
        { name: 'service', base: service.base, counters: serviceCounters(redis, SERVICE_PREFIX) },
        { name: 'peer', base: peer.base, counters: peerCounters(redis, PEER_PREFIX) },
      ],
      free: FREE,
      smallDay: SMALL_DAY,
    });
  } finally {
    redis.disconnect();
  }
  for (const line of quotaLines(quota)) log(`  ${line}`);
  return quota;
}
