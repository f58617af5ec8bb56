import { createHash } from 'node:crypto';

const TAG_LENGTH = 10;

function tag(payload: string): string {
  return createHash('sha256').update(`pets-cursor:${payload}`).digest('base64url').slice(0, TAG_LENGTH);
}

/**
 * An opaque page position: base64url JSON plus an integrity tag, so a hand-edited or
 * truncated cursor is refused instead of silently reading from the wrong place.
 */
export function encodeCursor(position: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${tag(payload)}`;
}

/** The position inside a cursor, or `undefined` when it is malformed or tampered with. */
export function decodeCursor(cursor: string): Record<string, unknown> | undefined {
  const [payload, checksum, ...rest] = cursor.split('.');
  if (!payload || rest.length > 0 || checksum !== tag(payload)) return undefined;
  try {
    const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof position === 'object' && position !== null && !Array.isArray(position)
      ? (position as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
