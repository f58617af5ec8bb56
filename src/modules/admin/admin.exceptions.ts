import { HttpStatus } from '@nestjs/common';
import {
  ApiError,
  ApiException,
  INVALID_REQUEST_ERRORS,
  PayloadTooLargeException,
  SERVICE_ERRORS,
  UnsupportedMediaTypeException,
} from '../../common/index.js';
import { bearerChallenge } from '../auth/index.js';
import { ClientNotFoundError } from '../plans/index.js';
import { RateLimitExceededException } from '../../policies/rate-limit/index.js';

// The admin listener's realm is not the public one.
const { challenge: CHALLENGE, definition: UNAUTHORIZED } = bearerChallenge('pets-admin', 'Missing or invalid admin token');

@ApiError({ ...UNAUTHORIZED, code: 'missing_admin_token' })
export class MissingAdminTokenException extends ApiException {
  constructor() {
    super('Send an admin token as "Authorization: Bearer <ADMIN_TOKEN>"; API keys do not open the admin API.', { headers: CHALLENGE });
  }
}

@ApiError({ ...UNAUTHORIZED, code: 'invalid_admin_token' })
export class InvalidAdminTokenException extends ApiException {
  constructor() {
    super('The admin token is not valid: unknown or revoked.', { headers: CHALLENGE });
  }
}

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class ClientKeyNotFoundException extends ApiException {
  constructor(keyId: number, clientId: number, which: 'live ' | '' = '') {
    super(`Client ${clientId} has no ${which}API key with id ${keyId}.`);
  }
}

/** What every admin operation may answer: a bad value, no valid admin token (429 once an address guesses on), a failure. */
export const EVERY_ADMIN_OPERATION_ERRORS = [
  ...INVALID_REQUEST_ERRORS,
  MissingAdminTokenException,
  InvalidAdminTokenException,
  RateLimitExceededException,
  ...SERVICE_ERRORS,
];

/** What an operation with a body may answer besides. */
export const BODY_ERRORS = [PayloadTooLargeException, UnsupportedMediaTypeException];

/** The admin document's catalogue of codes. */
export const ADMIN_ERRORS = [...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundError, ClientKeyNotFoundException];
