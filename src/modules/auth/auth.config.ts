import { defineConfig, isInteger } from '../../platform/config/index.js';

export interface AuthConfig {
  /** How long a key lookup is reused; a revoked key is refused everywhere within this time. */
  cacheTtlMs: number;
}

export const authConfig = defineConfig('auth', { AUTH_CACHE_TTL_MS: isInteger(0, 5000) }, (): AuthConfig => ({
  cacheTtlMs: Number(process.env.AUTH_CACHE_TTL_MS || 4000),
}));
