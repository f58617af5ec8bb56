import { registerAs } from '@nestjs/config';

export interface RedisConfig {
  /** `redis://` or `rediss://` URL of a single Redis; unset means no Redis. */
  url?: string;
  /** `host:port` seeds of a Redis Cluster; takes precedence over `url`. */
  clusterNodes: Array<{ host: string; port: number }>;
  /** A command that takes longer fails, and the limiter falls back to its in-process store. */
  commandTimeoutMs: number;
  keyPrefix: string;
}

export function parseClusterNodes(value: string | undefined): Array<{ host: string; port: number }> {
  return (value ?? '')
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean)
    .map((node) => {
      const at = node.lastIndexOf(':');
      return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
    });
}

export const redisConfig = registerAs('redis', (): RedisConfig => ({
  url: process.env.REDIS_URL || undefined,
  clusterNodes: parseClusterNodes(process.env.REDIS_CLUSTER_NODES),
  commandTimeoutMs: Number(process.env.REDIS_COMMAND_TIMEOUT_MS || 250),
  keyPrefix: process.env.REDIS_KEY_PREFIX || 'pets:',
}));
