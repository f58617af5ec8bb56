import { createHash } from 'node:crypto';
import { invalidIdempotencyKey } from './idempotency.exceptions.js';

const MAX_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The SHA-256 of a valid `Idempotency-Key` header (the raw value is never stored), `undefined`
 * when the header is absent; anything but 1 to 255 printable ASCII characters is refused.
 */
export function idempotencyKeyHash(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.length > MAX_LENGTH || !PRINTABLE_ASCII.test(header)) throw invalidIdempotencyKey();
  return sha256(header);
}

/** JSON with object keys sorted at every depth, so key order and white space do not matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What "the same body" means: the same JSON value (an absent body counts as `null`). */
export function bodyFingerprint(body: unknown): string {
  return sha256(canonicalJson(body ?? null));
}
