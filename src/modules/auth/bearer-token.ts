import { HttpStatus } from '@nestjs/common';
import type { ApiErrorDefinition } from '../../common/index.js';

// The scheme is case-insensitive, one or more spaces follow it, and the token is one word.
const BEARER = /^Bearer +(\S+) *$/i;

export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/** A listener's 401 (RFC 6750: it names the scheme and the realm), documented with its challenge: the public port's and the admin's. */
export function bearerChallenge(realm: string, description: string) {
  const challenge = `Bearer realm="${realm}"`;
  const definition: Omit<ApiErrorDefinition, 'code'> = {
    status: HttpStatus.UNAUTHORIZED,
    description,
    headers: {
      'WWW-Authenticate': {
        description: `RFC 6750 challenge: \`${challenge}\`.`,
        schema: { type: 'string', maxLength: 200, pattern: '^Bearer realm="[^"]*"' },
      },
    },
  };
  return { challenge: { 'WWW-Authenticate': challenge }, definition };
}
