import { commaList, defineConfig, isInteger, type EnvCheck } from '../config/index.js';

export type RedisConfig = ReturnType<typeof redisConfig>;

function parseClusterNodes(value: string | undefined): Array<{ host: string; port: number }> {
  return commaList(value).map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
}

const isRedisUrl: EnvCheck = (value) =>
  /^rediss?:\/\/[^/]/.test(value) && URL.canParse(value) ? undefined : 'must be a redis:// or rediss:// URL';

const isClusterNodes: EnvCheck = (value) =>
  parseClusterNodes(value).every(({ host, port }) => host && Number.isInteger(port) && port > 0 && port < 65536)
    ? undefined
    : 'must be a comma-separated list of host:port';

export const redisConfig = defineConfig(
  'redis',
  {
    REDIS_URL: isRedisUrl,
    REDIS_CLUSTER_NODES: isClusterNodes,
    REDIS_COMMAND_TIMEOUT_MS: isInteger(10, 10_000),
    REDIS_KEY_PREFIX: (value) => (/^[\w:.-]{1,64}$/.test(value) ? undefined : 'must be 1 to 64 of [A-Za-z0-9_:.-]'),
  },
  () => ({
    /** Unset means no Redis. */
    url: process.env.REDIS_URL || undefined,
    /** Seeds of a Redis Cluster; take precedence over `url`. */
    clusterNodes: parseClusterNodes(process.env.REDIS_CLUSTER_NODES),
    commandTimeoutMs: Number(process.env.REDIS_COMMAND_TIMEOUT_MS || 250),
    keyPrefix: process.env.REDIS_KEY_PREFIX || 'pets:',
  }),
);
