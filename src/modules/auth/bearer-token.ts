// The scheme is case-insensitive, one or more spaces follow it, and the token is one word.
const BEARER = /^Bearer +(\S+) *$/i;

export function bearerToken(header: string | undefined): string | undefined {
  return header ? BEARER.exec(header)?.[1] : undefined;
}
