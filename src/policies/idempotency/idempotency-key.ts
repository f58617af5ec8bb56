import { createHash } from 'node:crypto';
import { ValidationFailedException } from '../../common/index.js';
import { IDEMPOTENCY_KEY_HEADER } from './idempotent.decorator.js';

const PRINTABLE_ASCII = /^[\x20-\x7E]{1,255}$/;

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The SHA-256 of a valid `Idempotency-Key` (the raw value is never stored), `undefined` without one. */
export function idempotencyKeyHash(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !PRINTABLE_ASCII.test(header)) {
    throw ValidationFailedException.forField(
      IDEMPOTENCY_KEY_HEADER,
      `${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters`,
    );
  }
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
