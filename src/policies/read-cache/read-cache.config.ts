import { defineConfig, isInteger } from '../../platform/config/index.js';

export type ReadCacheConfig = ReturnType<typeof readCacheConfig>;

export const readCacheConfig = defineConfig('readCache', { READ_CACHE_TTL_MS: isInteger(0, 60_000) }, () => ({
  /** 0 turns the cache off. */
  ttlMs: Number(process.env.READ_CACHE_TTL_MS || 1_000),
}));
