import { MAX_PAGE_SIZE, ValidationFailedException, type PageRequest } from '../common/index.js';
import { ADMIN_TOKEN_NAME_MAX_LENGTH } from '../modules/admin/index.js';
import { checkAuditQuery, type AuditQuery } from '../modules/audit/index.js';
import { clientName, planChoice, PlanRuleError, type PlanChoice } from '../modules/plans/index.js';
import { InvalidUsagePeriodException, usagePeriod, type UsagePeriodQuery } from '../modules/usage/index.js';
import { UsageError } from './cli.errors.js';
import { AUDIT_ACTIONS, SCOPE_NAMES } from './server-catalogues.js';

const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** Ids and limits: positive integers that a JSON number carries exactly. */
export function parsePositiveInteger(raw: string, what: string): number {
  const value = Number(raw);
  if (!POSITIVE_INTEGER.test(raw) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what} must be a positive integer (got "${raw}").`);
  }
  return value;
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Keeps expiry instants far inside what every supported database stores. */
const MAX_DURATION_MS = 36_500 * UNIT_MS.d;

/** A number and a unit, at most `maxMs` (a whole number of days), and 0 only where `zero` allows it. */
export function parseDuration(raw: string, what: string, { maxMs = MAX_DURATION_MS, zero = false } = {}): number {
  const match = /^(0|[1-9][0-9]*)([smhd])$/.exec(raw);
  const ms = match && (zero || match[1] !== '0') ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!(ms <= maxMs)) {
    throw new UsageError(
      `${what} must be a ${zero ? '' : 'positive '}number and a unit (s, m, h or d) such as 90s, 45m, 12h or 30d, ` +
        `at most ${maxMs / UNIT_MS.d}d (got "${raw}").`,
    );
  }
  return ms;
}

/** --limit and --cursor: a page of a listing, or undefined (the whole listing) when neither is given. */
export function parsePage(limit: string | undefined, cursor: string | undefined): PageRequest | undefined {
  if (limit === undefined && cursor === undefined) return undefined;
  const size = limit === undefined ? undefined : parsePositiveInteger(limit, '--limit');
  if (size !== undefined && size > MAX_PAGE_SIZE) throw new UsageError(`--limit must be at most ${MAX_PAGE_SIZE} (got "${limit}").`);
  return { limit: size, cursor };
}

export function parseTokenName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > ADMIN_TOKEN_NAME_MAX_LENGTH) {
    throw new UsageError(`--name must be 1 to ${ADMIN_TOKEN_NAME_MAX_LENGTH} characters, not only white space.`);
  }
  return name;
}

/** A plan rule broken by an argument is a usage error: exit 2 before the database is opened. */
function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof PlanRuleError) throw new UsageError(error.message);
    throw error;
  }
}

export function parseClientName(raw: string, what: string): string {
  return asUsage(() => clientName(raw, what));
}

export function parsePlanChoice(plan: string, perMinute: string | undefined, perDay: string | undefined): PlanChoice {
  const custom = {
    perMinute: perMinute === undefined ? undefined : parsePositiveInteger(perMinute, '--per-minute'),
    perDay: perDay === undefined ? undefined : parsePositiveInteger(perDay, '--per-day'),
  };
  return asUsage(() => planChoice(plan, custom, { perMinute: '--per-minute', perDay: '--per-day' }));
}

/** Comma-separated, so the list needs no quoting in a shell: `--scopes pets:read,keys:manage`. */
export function parseScopes(raw: string, what: string): string[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`${what} needs at least one scope of ${SCOPE_NAMES.join(', ')}.`);
  const unknown = names.find((name) => !SCOPE_NAMES.includes(name));
  if (unknown !== undefined) throw new UsageError(`Unknown scope "${unknown}" in ${what}; choose from ${SCOPE_NAMES.join(', ')}.`);
  return names;
}

const AUDIT_OPTIONS: Readonly<Record<string, string>> = { clientId: '--client', action: '--action', cursor: '--cursor', limit: '--limit' };

/** The audit log's own rules, which the admin API answers with 400: here a usage error naming the options. */
export function parseAuditQuery(query: AuditQuery): AuditQuery {
  try {
    checkAuditQuery(query, AUDIT_ACTIONS);
    return query;
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    const messages = (error.details ?? []).map(({ field, message }) => message.replace(field, AUDIT_OPTIONS[field] ?? field));
    throw new UsageError(`${messages.join('; ')}.`);
  }
}

/** The usage module's own check of a period, made before the database is opened (the defaults end today). */
export function parseUsagePeriod(from: string | undefined, to: string | undefined): UsagePeriodQuery {
  const period = { ...(from !== undefined && { from }), ...(to !== undefined && { to }) };
  try {
    usagePeriod(period, new Date());
  } catch (error) {
    if (error instanceof InvalidUsagePeriodException) throw new UsageError(`${error.message}.`);
    throw error;
  }
  return period;
}
