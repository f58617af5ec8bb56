import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** `pets_`, 32 random base62 characters and their CRC32 in 6: a typo or a guess is refused without a lookup (decisions.md). */
const PREFIX = 'pets_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
/** How much of a key is kept in clear, so operators can tell keys apart. */
const DISPLAY_LENGTH = PREFIX.length + 8;

function toBase62(value: number, width: number): string {
  let out = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out.padStart(width, '0');
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = Array.from({ length: BODY_LENGTH }, () => BASE62[randomInt(BASE62.length)]).join('');
  return `${PREFIX}${body}${checksum(body)}`;
}

export function isWellFormedApiKey(token: string): boolean {
  if (!KEY_PATTERN.test(token)) return false;
  const body = token.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return token.slice(PREFIX.length + BODY_LENGTH) === checksum(body);
}

/** What is stored instead of the key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}
