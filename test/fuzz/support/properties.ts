import { isUtf8 } from 'node:buffer';
import { isValidNameOracle, MAX_ID, PET_STATUSES, type ContentTypeCase } from './arbitraries.js';
import { header, preview, type RawRequest, type RawResponse } from './raw-http.js';

/**
 * The checks every fuzzed response must pass (the Error object, the rate-limit headers, the
 * request id, no 5xx, no leaks), the prototype-pollution check, and the oracles that say which
 * outcomes a request may have. A failed check throws an Error that names the request, so the
 * counterexample fast-check prints is readable on its own.
 */

/** The catalogue of docs/contract/decisions.md, "Errors", and the admin API's two codes: code -> HTTP status. */
export const ERROR_CATALOGUE: Readonly<Record<string, number>> = {
  validation_failed: 400,
  malformed_json: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  missing_admin_token: 401,
  invalid_admin_token: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  key_limit_reached: 409,
  endpoint_limit_reached: 409,
  endpoint_removed: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  api_key_suspended: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
  details?: Array<{ field: string; message: string }>;
}

export interface PetBody {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** What a leak looks like: stack frames, file positions, SQL, driver and ORM names. */
const LEAKS = [
  /\bat\s+\S+\s+\(/,
  /\bat\s+(file:\/\/|\/|node:)/,
  /\.(ts|js|mjs|cjs):\d+/,
  /node_modules/,
  /\/work\/|\/src\//,
  /QueryFailedError|TypeORM|\bpg\b.*error|\bpostgres\b/i,
  /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\S+\s+SET\b|\bDELETE\s+FROM\b/i,
  /RangeError|TypeError|ReferenceError|Maximum call stack/,
];

export class PropertyViolation extends Error {
  constructor(message: string, request: RawRequest, response?: RawResponse) {
    const body = request.body === undefined ? '' : `body ${preview(request.body)}`;
    const answer = response ? `\n  answered ${response.status} ${JSON.stringify(response.headers)}\n  ${response.text.slice(0, 500)}` : '';
    super(`${message}\n  for ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${body}${answer}`);
  }
}

function check(condition: unknown, message: string, request: RawRequest, response?: RawResponse): asserts condition {
  if (!condition) throw new PropertyViolation(message, request, response);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasExactKeys = (value: Record<string, unknown>, required: string[], optional: string[] = []) =>
  required.every((key) => Object.hasOwn(value, key)) && Object.keys(value).every((key) => required.includes(key) || optional.includes(key));

/** Property 2: an error response is exactly the Error object, from the catalogue, and leaks nothing. */
export function checkErrorResponse(request: RawRequest, response: RawResponse): ErrorBody | undefined {
  check(/^application\/json(;|$)/.test(header(response, 'content-type') ?? ''), 'an error must be application/json', request, response);
  if (request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new PropertyViolation('an error body must be JSON', request, response);
  }
  check(
    isObject(body) && hasExactKeys(body, ['code', 'message', 'status'], ['details']),
    'the Error object has exactly code, message, status[, details]',
    request,
    response,
  );
  const { code, message, status, details } = body;
  check(
    typeof code === 'string' && Object.hasOwn(ERROR_CATALOGUE, code),
    `code ${String(code)} is not in the catalogue`,
    request,
    response,
  );
  check(
    ERROR_CATALOGUE[code] === response.status,
    `code ${code} goes with ${ERROR_CATALOGUE[code]}, not ${response.status}`,
    request,
    response,
  );
  check(status === response.status, 'status must equal the HTTP status', request, response);
  check(typeof message === 'string' && message.length > 0, 'message must be a non-empty string', request, response);
  if (details !== undefined) {
    check(code === 'validation_failed', 'only validation_failed carries details', request, response);
    check(Array.isArray(details) && details.length >= 1 && details.length <= 100, 'details: 1 to 100 entries', request, response);
    for (const detail of details as unknown[]) {
      check(isObject(detail) && hasExactKeys(detail, ['field', 'message']), 'a detail is exactly {field, message}', request, response);
      check(
        typeof detail.field === 'string' && detail.field.length <= 200,
        'a detail field is a string of at most 200 characters',
        request,
        response,
      );
      check(
        typeof detail.message === 'string' && detail.message.length <= 1000,
        'a detail message is at most 1000 characters',
        request,
        response,
      );
    }
  }
  // What the caller sent may be echoed (the path in a 404, a property name in a detail); the rest may not leak.
  const echoed = [request.path.split('?')[0], ...((details as ErrorBody['details']) ?? []).map((d) => d.field)].filter((s) => s.length > 0);
  const own = [message, ...((details as ErrorBody['details']) ?? []).map((d) => d.message)].map((text) =>
    echoed.reduce((rest, piece) => rest.split(piece).join(''), text),
  );
  for (const text of own) {
    const leak = LEAKS.find((pattern) => pattern.test(text));
    check(leak === undefined, `the error text leaks internals (${String(leak)})`, request, response);
  }
  return body as unknown as ErrorBody;
}

/** Property 3: the quota headers on every /v1 response, integers where integers, consistent. */
export function checkRateLimitHeaders(request: RawRequest, response: RawResponse): void {
  const limit = header(response, 'x-ratelimit-limit');
  const remaining = header(response, 'x-ratelimit-remaining');
  const reset = header(response, 'x-ratelimit-reset');
  const policy = header(response, 'ratelimit-policy');
  const field = header(response, 'ratelimit');
  check(limit !== undefined && /^[1-9]\d*$/.test(limit), 'X-RateLimit-Limit: a positive integer', request, response);
  check(remaining !== undefined && /^\d+$/.test(remaining), 'X-RateLimit-Remaining: an integer >= 0', request, response);
  check(Number(remaining) <= Number(limit), 'X-RateLimit-Remaining <= X-RateLimit-Limit', request, response);
  check(reset !== undefined && /^\d{10,}$/.test(reset), 'X-RateLimit-Reset: Unix seconds', request, response);
  const policyMatch = /^"minute";q=(\d+);w=60, "day";q=(\d+);w=86400$/.exec(policy ?? '');
  check(policyMatch, 'RateLimit-Policy: "minute";q=N;w=60, "day";q=M;w=86400', request, response);
  const fieldMatch = /^"(minute|day)";r=(\d+);t=(\d+)$/.exec(field ?? '');
  check(fieldMatch, 'RateLimit: "<window>";r=N;t=S', request, response);
  check(fieldMatch[2] === remaining, 'RateLimit r equals X-RateLimit-Remaining', request, response);
  check(Number(fieldMatch[3]) >= 1, 'RateLimit t >= 1', request, response);
  if (response.status !== 429) {
    const quota = fieldMatch[1] === 'minute' ? policyMatch[1] : policyMatch[2];
    check(quota === limit, 'X-RateLimit-Limit is the quota of the window RateLimit names', request, response);
  }
}

/** Property 6: every response has an X-Request-Id: the caller's when sane, else a new UUID. */
export function checkRequestId(request: RawRequest, response: RawResponse): void {
  const id = header(response, 'x-request-id');
  check(id !== undefined && id.length > 0, 'X-Request-Id on every response', request, response);
  const offered = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
  // node:http drops leading and trailing white space of header values.
  const received = offered?.replace(/^[ \t]+|[ \t]+$/g, '');
  if (received !== undefined && SANE_REQUEST_ID.test(received)) check(id === received, 'a sane X-Request-Id is echoed', request, response);
  else check(UUID.test(id), 'without a sane X-Request-Id the service makes a UUID', request, response);
}

/** A Pet in a response: all four fields, in their ranges. */
export function checkPet(value: unknown, request: RawRequest, response: RawResponse): PetBody {
  check(
    isObject(value) && hasExactKeys(value, ['id', 'name', 'categoryId', 'status']),
    'a Pet has exactly id, name, categoryId, status',
    request,
    response,
  );
  const { id, name, categoryId, status } = value;
  check(Number.isSafeInteger(id) && (id as number) >= 1, 'Pet id: an integer in 1..2^53-1', request, response);
  check(isValidNameOracle(name), 'Pet name: a valid name', request, response);
  check(
    Number.isSafeInteger(categoryId) && (categoryId as number) >= 1 && (categoryId as number) <= MAX_ID,
    'Pet categoryId in range',
    request,
    response,
  );
  check((PET_STATUSES as readonly unknown[]).includes(status), 'Pet status: one of the three', request, response);
  return value as unknown as PetBody;
}

/**
 * Properties 1, 2, 3 and 6 for one exchange, and the headers the catalogue promises with some
 * statuses (WWW-Authenticate on 401, Allow on 405, Retry-After on 429). Returns the error body.
 */
export function checkResponse(request: RawRequest, response: RawResponse): ErrorBody | undefined {
  check(response.status >= 200 && response.status < 500, `never a 5xx (got ${response.status})`, request, response);
  checkRequestId(request, response);
  if (request.path.startsWith('/v1')) checkRateLimitHeaders(request, response);
  if (response.status < 400) {
    if (request.method !== 'HEAD' && response.status !== 204)
      check(/^application\/json(;|$)/.test(header(response, 'content-type') ?? ''), 'a success is application/json', request, response);
    return undefined;
  }
  const error = checkErrorResponse(request, response);
  if (response.status === 401) {
    const realm = /^\/admin\//i.test(request.path) ? 'pets-admin' : 'pets';
    check(header(response, 'www-authenticate') === `Bearer realm="${realm}"`, '401 carries WWW-Authenticate', request, response);
  }
  if (response.status === 405) check(/^[A-Z]+(, [A-Z]+)*$/.test(header(response, 'allow') ?? ''), '405 carries Allow', request, response);
  if (response.status === 429)
    check(/^[1-9]\d*$/.test(header(response, 'retry-after') ?? ''), '429 carries Retry-After >= 1', request, response);
  return error;
}

/** Property 4: a request that was refused created nothing; a 201 created exactly one row. */
export function checkRowsCreated(rowsBefore: number, rowsAfter: number, request: RawRequest, response: RawResponse): void {
  const created = rowsAfter - rowsBefore;
  check(created === (response.status === 201 ? 1 : 0), `a ${response.status} changed the pets table by ${created} rows`, request, response);
}

/** Checks that the outcome ("201", "400 validation_failed") is one the oracle allows. */
export function checkOutcome(outcome: string, allowed: readonly string[], request: RawRequest, response: RawResponse): void {
  check(allowed.includes(outcome), `expected ${allowed.join(' or ')}, got ${outcome}`, request, response);
}

// ---------------------------------------------------------------------------------------------
// Property 5: prototype pollution

/** The prototypes of this realm and of Node's own (Buffer comes from outside jest's sandbox). */
function prototypes(): Array<[string, object]> {
  const outerObjectPrototype = Object.getPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf(Buffer.prototype))) as object;
  return [
    ['Object.prototype', Object.prototype],
    ['Array.prototype', Array.prototype],
    ['Function.prototype', Function.prototype],
    ['String.prototype', String.prototype],
    ['Number.prototype', Number.prototype],
    ["Node's Object.prototype", outerObjectPrototype],
  ];
}

export type PrototypeSnapshot = Map<string, Map<string | symbol, PropertyDescriptor>>;

export function snapshotPrototypes(): PrototypeSnapshot {
  return new Map(
    prototypes().map(([name, proto]) => [
      name,
      new Map(Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)!])),
    ]),
  );
}

/** No new, removed or replaced property on any prototype, and `({}).polluted` is still undefined. */
export function checkNoPollution(before: PrototypeSnapshot, context: string): void {
  const problems: string[] = [];
  if (({} as Record<string, unknown>).polluted !== undefined) problems.push('({}).polluted is defined');
  if (([] as unknown as Record<string, unknown>).polluted !== undefined) problems.push('[].polluted is defined');
  const after = snapshotPrototypes();
  for (const [name, properties] of after) {
    const earlier = before.get(name)!;
    for (const [key, descriptor] of properties) {
      const old = earlier.get(key);
      if (!old) problems.push(`${name} gained ${String(key)}`);
      else if (old.value !== descriptor.value || old.get !== descriptor.get || old.set !== descriptor.set)
        problems.push(`${name}.${String(key)} was replaced`);
    }
    for (const key of earlier.keys()) if (!properties.has(key)) problems.push(`${name} lost ${String(key)}`);
  }
  if (problems.length > 0) throw new Error(`prototype pollution after ${context}: ${problems.join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Oracles

export type AuthKind = 'valid' | 'missing' | 'invalid';

/** What the service must make of an Authorization header value (docs/contract/decisions.md, "Fine points"). */
export function authKindOf(value: string | undefined, validKeys: readonly string[]): AuthKind {
  if (value === undefined) return 'missing';
  const received = value.replace(/^[ \t]+|[ \t]+$/g, '');
  const match = /^bearer +([^\s]+) *$/i.exec(received);
  if (!match) return 'missing';
  return validKeys.includes(match[1]) ? 'valid' : 'invalid';
}

/** True when any string or key of a parsed JSON value holds a lone surrogate (not Unicode text). */
function hasLoneSurrogate(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string' && /\p{Surrogate}/u.test(item)) return true;
    if (typeof item === 'object' && item !== null) {
      for (const key of Object.keys(item)) {
        if (/\p{Surrogate}/u.test(key)) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** Nesting depth of a parsed JSON value: a scalar is 0, `{}` and `[]` are 1. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const key of Object.keys(item)) stack.push([(item as Record<string, unknown>)[key], depth + 1]);
  }
  return deepest;
}

/** The JSON nesting the service reads (docs/contract/decisions.md has no number; the NewPet schema needs 1). */
export const MAX_JSON_DEPTH = 32;

export interface CreateExpectation {
  outcomes: string[];
  /** The Pet a 201 must carry (without its id). */
  pet?: Omit<PetBody, 'id'>;
}

/** What a parsed JSON body is worth to createPet: a Pet, or validation_failed. */
function petOracle(parsed: unknown): CreateExpectation {
  const refused = { outcomes: ['400 validation_failed'] };
  if (!isObject(parsed)) return refused;
  if (!Object.keys(parsed).every((key) => ['name', 'categoryId', 'status'].includes(key))) return refused;
  const { name, categoryId, status } = parsed;
  if (!isValidNameOracle(name)) return refused;
  if (typeof categoryId !== 'number' || !Number.isSafeInteger(categoryId) || categoryId < 1) return refused;
  if (status !== undefined && !(PET_STATUSES as readonly unknown[]).includes(status)) return refused;
  return { outcomes: ['201'], pet: { name, categoryId, status: (status as string | undefined) ?? 'available' } };
}

function jsonBodyOracle(body: Buffer, bodyLimit: number): CreateExpectation {
  if (body.length > bodyLimit) return { outcomes: ['413 payload_too_large'] };
  if (!isUtf8(body)) return { outcomes: ['400 malformed_json'] };
  const text = body.toString('utf8');
  // RFC 8259 lets a parser ignore a byte order mark or refuse it.
  const candidates = text.startsWith('\ufeff') ? [text, text.slice(1)] : [text];
  const outcomes = candidates.map((candidate): CreateExpectation => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      return { outcomes: ['400 malformed_json'] };
    }
    if (hasLoneSurrogate(parsed)) return { outcomes: ['400 malformed_json'] };
    if (depthOf(parsed) > MAX_JSON_DEPTH) return { outcomes: ['400 validation_failed'] };
    return petOracle(parsed);
  });
  return { outcomes: outcomes.flatMap((o) => o.outcomes), pet: outcomes.find((o) => o.pet)?.pet };
}

/** Is the Idempotency-Key header acceptable (1 to 255 printable ASCII after node trims it)? */
export function idempotencyKeyIsValid(value: string | undefined): boolean {
  if (value === undefined) return true;
  return /^[\x20-\x7e]{1,255}$/.test(value.replace(/^[ \t]+|[ \t]+$/g, ''));
}

/**
 * Every outcome POST /v1/pets may have. Body errors of the parser (415, 413, malformed JSON)
 * and authentication errors may come in either order (docs/contract/decisions.md, "Fine points"); validation
 * comes after authentication; a 201 needs everything right.
 */
export function createPetOracle(
  body: Buffer,
  type: ContentTypeCase,
  auth: AuthKind,
  idempotencyKey: string | undefined,
  bodyLimit: number,
): CreateExpectation {
  let expectation: CreateExpectation;
  if (body.length === 0) expectation = { outcomes: ['400 validation_failed'] };
  else if (type.kind === 'not-json') expectation = { outcomes: ['415 unsupported_media_type'] };
  else {
    const json = jsonBodyOracle(body, bodyLimit);
    expectation = type.kind === 'odd' ? { ...json, outcomes: ['415 unsupported_media_type', ...json.outcomes] } : json;
  }
  if (!idempotencyKeyIsValid(idempotencyKey)) {
    // The header is read after the body is parsed and the caller known, before validation.
    expectation = {
      outcomes: expectation.outcomes.map((outcome) => (outcome === '201' ? '400 validation_failed' : outcome)),
    };
  }
  if (auth !== 'valid') {
    const refusal = `401 ${auth === 'missing' ? 'missing_api_key' : 'invalid_api_key'}`;
    return { outcomes: [refusal, ...expectation.outcomes.filter((outcome) => outcome !== '201')] };
  }
  return expectation;
}

/**
 * The parameters of GET /v1/pets as the service must read them (application/x-www-form-urlencoded),
 * and whether they are acceptable. Leading zeros (`007`) are left to the service.
 */
export function listPetsOracle(
  query: string,
  cursors: ReadonlyMap<string, { after: number; status: string | null }>,
): { valid: boolean | 'either'; limit: number; status?: string; after: number } {
  const params = new URLSearchParams(query);
  const keys = [...params.keys()];
  const invalid = { valid: false as const, limit: 20, after: 0 };
  if (!keys.every((key) => ['limit', 'status', 'cursor'].includes(key))) return invalid;
  if (new Set(keys).size !== keys.length) return invalid;
  const limit = params.get('limit');
  const status = params.get('status') ?? undefined;
  const cursor = params.get('cursor');
  if (status !== undefined && !(PET_STATUSES as readonly string[]).includes(status)) return invalid;
  let after = 0;
  if (cursor !== null) {
    const position = cursors.get(cursor);
    if (!position || position.status !== (status ?? null)) return invalid;
    after = position.after;
  }
  if (limit === null) return { valid: true, limit: 20, status, after };
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100) return invalid;
  return { valid: /^0/.test(limit) ? 'either' : true, limit: Number(limit), status, after };
}

/** What GET /v1/pets/{segment} must answer: the id, or 'invalid', or 'either' for leading zeros. */
export function petIdOracle(segment: string): number | 'invalid' | 'either' {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return 'invalid';
  }
  if (/^0\d+$/.test(decoded)) return 'either';
  if (!/^[1-9]\d*$/.test(decoded) || Number(decoded) > MAX_ID) return 'invalid';
  return Number(decoded);
}

/** The methods the two routes serve, and how a raw path is routed (case-insensitive, optional trailing slash). */
export function routeOf(path: string): { allowed: string[] } | undefined {
  const pathname = path.split('?')[0];
  if (/^\/v1\/pets\/?$/i.test(pathname)) return { allowed: ['GET', 'HEAD', 'POST'] };
  if (/^\/v1\/pets\/[^/]+\/?$/i.test(pathname)) return { allowed: ['GET', 'HEAD'] };
  return undefined;
}
