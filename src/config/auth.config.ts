import { registerAs } from '@nestjs/config';

export interface AuthConfig {
  /** How long a key lookup is reused; a revoked key is refused everywhere within this time. */
  cacheTtlMs: number;
}

export const authConfig = registerAs('auth', (): AuthConfig => ({
  cacheTtlMs: Number(process.env.AUTH_CACHE_TTL_MS || 4000),
}));
