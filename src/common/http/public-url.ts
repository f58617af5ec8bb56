import type { Request } from 'express';

/** The API's absolute base: `PUBLIC_BASE_URL`, else the request's scheme and host (forwarded ones as TRUST_PROXY says). */
export function apiBaseUrl(request: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host.toLowerCase()}/v1`;
}

/** The documented `Location` header of a 201. */
export const locationHeader = (description: string) => ({
  Location: { description, schema: { type: 'string', format: 'uri-reference', maxLength: 2048 } },
});
