import type { ConfigService } from '@nestjs/config';
import { defineConfig, isInteger } from '../../platform/config/index.js';

export type AuthConfig = ReturnType<typeof authConfig>;

export const authConfig = defineConfig('auth', { AUTH_CACHE_TTL_MS: isInteger(0, 5000) }, () => ({
  cacheTtlMs: Number(process.env.AUTH_CACHE_TTL_MS || 4000),
}));

/**
 * An API key's or admin token's lookups: misses too for AUTH_CACHE_TTL_MS (a revoked one is refused within it); one verified live
 * answers for 5 minutes more while the database cannot be reached.
 */
export const credentialLookups = (config: ConfigService, max: number) => ({
  max,
  freshMs: config.getOrThrow<AuthConfig>('auth').cacheTtlMs,
  staleMs: 5 * 60_000,
});
