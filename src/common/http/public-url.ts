import type { Request } from 'express';

/** The API's absolute base: `PUBLIC_BASE_URL`, else the request's scheme and host (forwarded ones as TRUST_PROXY says). */
export function apiBaseUrl(request: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host.toLowerCase()}/v1`;
}
