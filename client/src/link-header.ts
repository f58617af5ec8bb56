/** The target of the first link whose relations include `rel` in a `Link` header (RFC 8288), if any. */
export function linkTarget(header: string | null, rel: string): string | undefined {
  for (const [, target, parameters] of (header ?? '').matchAll(/<([^>]*)>([^<]*)/g)) {
    const relations = /;\s*rel\s*=\s*"?([^";,]+)"?/i.exec(parameters)?.[1];
    if (relations?.trim().split(/\s+/).includes(rel)) return target;
  }
  return undefined;
}
