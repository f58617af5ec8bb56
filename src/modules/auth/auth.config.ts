import { defineConfig, isInteger } from '../../platform/config/index.js';

export type AuthConfig = ReturnType<typeof authConfig>;

export const authConfig = defineConfig('auth', { AUTH_CACHE_TTL_MS: isInteger(0, 5000) }, () => ({
  cacheTtlMs: Number(process.env.AUTH_CACHE_TTL_MS || 4000),
}));
