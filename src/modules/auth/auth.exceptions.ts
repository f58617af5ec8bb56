import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException } from '../../common/index.js';
import { bearerChallenge } from './bearer-token.js';

const { challenge: CHALLENGE, definition: UNAUTHORIZED } = bearerChallenge('pets', 'Missing or invalid API key');

@ApiError({ ...UNAUTHORIZED, code: 'missing_api_key' })
export class MissingApiKeyException extends ApiException {
  constructor() {
    super('Send your API key as "Authorization: Bearer <API_KEY>".', { headers: CHALLENGE });
  }
}

@ApiError({ ...UNAUTHORIZED, code: 'invalid_api_key' })
export class InvalidApiKeyException extends ApiException {
  /** An expired key gets the same code as any invalid one; the message tells the holder of a rolled key why. */
  constructor(expired = false) {
    super(expired ? 'expired' : 'The API key is not valid: unknown, revoked or expired.', { headers: CHALLENGE });
  }
}

/** The errors of every operation behind the API key guard. */
export const AUTHENTICATION_ERRORS = [MissingApiKeyException, InvalidApiKeyException];

@ApiError({
  status: HttpStatus.FORBIDDEN,
  code: 'insufficient_scope',
  description: "The API key lacks the scope in the operation's `x-required-scopes`",
  headers: {
    'WWW-Authenticate': {
      description: 'RFC 6750 challenge naming the scope: `Bearer realm="pets", error="insufficient_scope", scope="<scope>"`.',
      schema: { type: 'string', maxLength: 200, pattern: '^Bearer realm="[^"]*", error="insufficient_scope", scope="[^"]*"$' },
    },
  },
})
export class InsufficientScopeException extends ApiException {
  constructor(scope: string) {
    super(`This API key lacks the scope "${scope}", which this operation needs.`, {
      headers: { 'WWW-Authenticate': `${CHALLENGE['WWW-Authenticate']}, error="insufficient_scope", scope="${scope}"` },
    });
  }
}
