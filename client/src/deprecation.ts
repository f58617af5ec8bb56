import { linkTarget } from './link-header.js';

/** An operation the service has deprecated, from the `Deprecation`, `Sunset` and `Link` headers of its answer. */
export interface DeprecationNotice {
  /** The operation's id in the OpenAPI document, e.g. `getPet`. */
  operation: string;
  /** When it was deprecated (RFC 9745). */
  deprecatedAt: Date;
  /** When it stops working and answers 410 (RFC 8594); an operator may move it, so it is read from each server. */
  sunsetAt?: Date;
  /** The URL of what replaces it (`rel="successor-version"`). */
  successor?: string;
}

/** The notice an answer carries, if its operation is deprecated. */
export function deprecationNotice(operation: string, headers: Headers, base: URL): DeprecationNotice | undefined {
  const deprecated = /^@(\d+)$/.exec(headers.get('deprecation') ?? '');
  if (!deprecated) return undefined;
  const sunset = Date.parse(headers.get('sunset') ?? '');
  const successor = linkTarget(headers.get('link'), 'successor-version');
  return {
    operation,
    deprecatedAt: new Date(Number(deprecated[1]) * 1000),
    ...(!Number.isNaN(sunset) && { sunsetAt: new Date(sunset) }),
    ...(successor !== undefined && { successor: new URL(successor, base).href }),
  };
}

/** The default `onDeprecation`: one warning on the console, as Node.js does for its own deprecations. */
export function warnOfDeprecation({ operation, deprecatedAt, sunsetAt, successor }: DeprecationNotice): void {
  const removal = sunsetAt ? `; it stops working on ${sunsetAt.toISOString()}` : '';
  const instead = successor ? `; use ${successor} instead` : '';
  console.warn(`@pet-adoption/client: ${operation} is deprecated since ${deprecatedAt.toISOString()}${removal}${instead}.`);
}
