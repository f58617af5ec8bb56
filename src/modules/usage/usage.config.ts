import { defineConfig, isInteger } from '../../platform/config/index.js';

export type UsageConfig = ReturnType<typeof usageConfig>;

export const usageConfig = defineConfig('usage', { USAGE_FLUSH_INTERVAL_MS: isInteger(100, 600_000) }, () => ({
  /** How often a replica writes what it counted: what `kill -9` may lose of its counts. */
  flushIntervalMs: Number(process.env.USAGE_FLUSH_INTERVAL_MS || 10_000),
}));
