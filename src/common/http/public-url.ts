import type { Request, Response } from 'express';

/** The API's absolute base: `PUBLIC_BASE_URL`, else the request's scheme and host (forwarded ones as TRUST_PROXY says). */
export function apiBaseUrl(request: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host.toLowerCase()}/v1`;
}

/** The documented `Location` header of a 201. */
export const locationHeader = (description: string) => ({
  Location: { description, schema: { type: 'string', format: 'uri-reference', maxLength: 2048 } },
});

/** The documented `Link` header of a page that may have a next one. */
export const nextLinkHeader = {
  Link: {
    description: '`<url>; rel="next"` when another page exists.',
    schema: { type: 'string', maxLength: 2048, pattern: '^<[^>]+>; rel="next"$' },
  },
};

/** Sets `Link: <absolute URL of the next page>; rel="next"` when there is one: `path` under the API's base, with `query`. */
export function setNextLink(
  response: Response,
  request: Request,
  publicBaseUrl: string | undefined,
  path: string,
  query: Record<string, string | number | undefined>,
  nextCursor: string | null,
): void {
  if (!nextCursor) return;
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) next.set(name, String(value));
  next.set('cursor', nextCursor);
  response.setHeader('Link', `<${apiBaseUrl(request, publicBaseUrl)}${path}?${next.toString()}>; rel="next"`);
}
