import { registerAs } from '@nestjs/config';

export interface AppConfig {
  port: number;
  host: string;
  production: boolean;
  publicBaseUrl?: string;
  stagingBaseUrl?: string;
  /** Host names (lower case, no port) a request may name; empty means any (docs/contract/decisions.md, "Host names in links"). */
  allowedHosts: string[];
  trustProxy: boolean | number | string;
  bodyLimit: string;
  logLevel: string;
  /** Origins allowed by CORS; empty means no CORS headers at all (the API serves no browsers). */
  corsOrigins: string[];
  /** After SIGTERM, readiness answers 503 this long while the server still serves. */
  shutdownReadinessDelayMs: number;
  /** Then in-flight requests get this long to finish before their connections are closed. */
  shutdownGraceMs: number;
}

const trimSlash = (url: string | undefined) => url?.replace(/\/+$/, '');

/** Splits a comma-separated variable into its trimmed, non-empty entries. */
export const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export const appConfig = registerAs('app', (): AppConfig => ({
  port: Number(process.env.PORT || 3000),
  host: process.env.HOST || '0.0.0.0',
  production: process.env.NODE_ENV === 'production',
  publicBaseUrl: trimSlash(process.env.PUBLIC_BASE_URL || undefined),
  stagingBaseUrl: trimSlash(process.env.STAGING_BASE_URL || undefined),
  allowedHosts: commaList(process.env.ALLOWED_HOSTS).map((host) => host.toLowerCase()),
  trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
  bodyLimit: process.env.BODY_LIMIT || '16kb',
  logLevel: process.env.LOG_LEVEL || 'info',
  corsOrigins: commaList(process.env.CORS_ORIGINS),
  shutdownReadinessDelayMs: Number(process.env.SHUTDOWN_READINESS_DELAY_MS || 5_000),
  shutdownGraceMs: Number(process.env.SHUTDOWN_GRACE_MS || 10_000),
}));
