import { ApiError, ConnectionError, RateLimitError, TimeoutError } from '../../client/src/index.js';
import { utcInstant, waitOf } from './format.js';

/**
 * A failed call in words: the API's own message with its code, the fields it refused, and for a refusal of the
 * quota when to try again. The client library makes no retry for the console (a person is waiting), so every
 * refusal arrives here at once.
 */
export function inWords(error: unknown, now: Date = new Date()): string {
  if (error instanceof RateLimitError) {
    const wait = waitOf(error.retryAfterSeconds ?? (error.resetAt.getTime() - now.getTime()) / 1000);
    return `${error.message} (${error.code}). Try again in ${wait}, at ${utcInstant(error.resetAt, now)}.`;
  }
  if (error instanceof ApiError) {
    const fields = (error.details ?? []).map(({ field, message }) => ` ${field}: ${message}`).join(';');
    return `${error.message}${fields} (${error.code})`;
  }
  if (error instanceof TimeoutError) return 'The service did not answer in time. Try again.';
  if (error instanceof ConnectionError) return 'The service could not be reached. Check the connection and try again.';
  return error instanceof Error ? error.message : String(error);
}
