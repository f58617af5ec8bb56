import type { Request } from 'express';

/**
 * The absolute base of the API (ending in `/v1`): `PUBLIC_BASE_URL` when set, else the
 * request's own scheme and host (forwarded ones count only when `TRUST_PROXY` is on,
 * which Express applies to `protocol` and `host`), in lower case. With `ALLOWED_HOSTS` set, that
 * host is one of them (`allowedHostMiddleware`).
 */
export function apiBaseUrl(request: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host.toLowerCase()}/v1`;
}
