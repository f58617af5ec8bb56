import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * A prefix, 32 random base62 characters and their CRC32 in 6: a typo or a guess is refused without a
 * lookup (decisions.md). API keys are `pets_` ones; admin tokens use the same format with their own prefix.
 */
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** How much of a token past its prefix is kept in clear, so operators can tell tokens apart. */
const DISPLAYED_CHARACTERS = 8;

/** The body's CRC32 in base62. */
function checksum(body: string): string {
  let out = '';
  for (let rest = crc32(body); rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out.padStart(CHECKSUM_LENGTH, '0');
}

export function tokenFormat(prefix: string) {
  const pattern = new RegExp(`^${prefix}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);
  return {
    generate: (): string => {
      const body = Array.from({ length: BODY_LENGTH }, () => BASE62[randomInt(BASE62.length)]).join('');
      return `${prefix}${body}${checksum(body)}`;
    },
    isWellFormed: (token: string): boolean =>
      pattern.test(token) && token.slice(prefix.length + BODY_LENGTH) === checksum(token.slice(prefix.length, prefix.length + BODY_LENGTH)),
    /** What is stored instead of the token. */
    hash: (token: string): string => createHash('sha256').update(token).digest('hex'),
    displayPrefix: (token: string): string => token.slice(0, prefix.length + DISPLAYED_CHARACTERS),
  };
}

const API_KEYS = tokenFormat('pets_');

export const generateApiKey = API_KEYS.generate;
export const isWellFormedApiKey = API_KEYS.isWellFormed;
export const hashApiKey = API_KEYS.hash;
export const displayPrefix = API_KEYS.displayPrefix;
