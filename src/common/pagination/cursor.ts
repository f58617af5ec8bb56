import { createHash } from 'node:crypto';

const checksum = (payload: string) => createHash('sha256').update(`pets-cursor:${payload}`).digest('base64url').slice(0, 10);

/** An opaque page position: base64url JSON, a checksum against mistyped cursors; unsigned, as a position grants nothing. */
export function encodeCursor(position: Record<string, unknown>): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${checksum(payload)}`;
}

export function decodeCursor(cursor: string): Record<string, unknown> | undefined {
  const [payload, sum, ...rest] = cursor.split('.');
  if (!payload || rest.length > 0 || sum !== checksum(payload)) return undefined;
  try {
    const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof position === 'object' && position !== null && !Array.isArray(position)
      ? (position as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
