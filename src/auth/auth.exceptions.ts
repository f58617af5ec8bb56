import { HttpStatus } from '@nestjs/common';
import { ApiException, ErrorCode } from '../common/index.js';

// RFC 6750: every 401 names the scheme and realm.
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="pets"' };

export class MissingApiKeyException extends ApiException {
  constructor() {
    super(
      ErrorCode.MissingApiKey,
      HttpStatus.UNAUTHORIZED,
      'Send your API key as "Authorization: Bearer <API_KEY>".',
      undefined,
      CHALLENGE,
    );
  }
}

export class InvalidApiKeyException extends ApiException {
  constructor() {
    super(ErrorCode.InvalidApiKey, HttpStatus.UNAUTHORIZED, 'The API key is not valid: unknown, revoked or expired.', undefined, CHALLENGE);
  }
}
