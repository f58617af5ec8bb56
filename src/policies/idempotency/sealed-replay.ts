import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** What a stored replay holds besides its status: the body and the Location header. */
export type ReplayContent = { body: unknown; location?: string };

/** Who may open a replay: the caller's raw API key, and the client and Idempotency-Key hash it was stored under. */
export type ReplaySealContext = { token: string; clientId: number; keyHash: string };

const VERSION = 'v1';
const PREFIX = `${VERSION}.`;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = Buffer.from('pets/idempotency-replay', 'utf8');

// The server stores only the API key's hash, so the database alone can never derive this key.
function sealingKey({ token, clientId, keyHash }: ReplaySealContext): Buffer {
  const info = Buffer.from(`${VERSION}|client:${clientId}|idempotency-key:${keyHash}`, 'utf8');
  return Buffer.from(hkdfSync('sha256', Buffer.from(token, 'utf8'), SALT, info, 32));
}

/** True for a replay this module sealed; a row of the release before is plain JSON, which never starts so. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The version prefix, then base64url of IV, tag and ciphertext: AES-GCM under a key only the caller's API key derives. */
export function sealReplay({ body, location }: ReplayContent, context: ReplaySealContext): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(context), iv);
  cipher.setAAD(Buffer.from(VERSION, 'utf8'));
  const plaintext = JSON.stringify({ body: body ?? null, ...(location !== undefined && { location }) });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

/** The sealed content, or `undefined` when this context cannot open it: another API key, or altered data. */
export function openReplay(sealed: string, context: ReplaySealContext): ReplayContent | undefined {
  if (!isSealed(sealed)) return undefined;
  const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(context), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(VERSION, 'utf8'));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    return JSON.parse(plaintext) as ReplayContent;
  } catch {
    return undefined;
  }
}
