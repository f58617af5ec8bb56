import { INVALID_REQUEST_ERRORS, PayloadTooLargeException, SERVICE_ERRORS, UnsupportedMediaTypeException } from '../../common/index.js';
import { RateLimitExceededException } from '../../policies/rate-limit/index.js';
import {
  ClientKeyNotFoundException,
  ClientNotFoundException,
  InvalidAdminTokenException,
  MissingAdminTokenException,
} from './admin.exceptions.js';

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
export const ADMIN_ERRORS = [...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundException, ClientKeyNotFoundException];
