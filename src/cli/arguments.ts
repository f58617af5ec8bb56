import { asSentence, id, optional, UsageError, ValidationFailedException } from '../common/index.js';
import { planChoice, type PlanChoice } from '../modules/plans/index.js';
import { SCOPE_NAMES } from './server-catalogues.js';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** Keeps expiry instants far inside what every supported database stores. */
const MAX_DURATION_MS = 36_500 * UNIT_MS.d;

/** A number and a unit, at most `maxMs` (a whole number of days), and 0 only where `zero` allows it. */
export const duration = ({ maxMs = MAX_DURATION_MS, zero = false } = {}) =>
  optional((raw, what) => {
    const match = /^(0|[1-9][0-9]*)([smhd])$/.exec(raw);
    const ms = match && (zero || match[1] !== '0') ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
    if (!(ms <= maxMs)) {
      throw new UsageError(
        `${what} must be a ${zero ? '' : 'positive '}number and a unit (s, m, h or d) such as 90s, 45m, 12h or 30d, ` +
          `at most ${maxMs / UNIT_MS.d}d (got "${raw}").`,
      );
    }
    return ms;
  });

/** Comma-separated, so the list needs no quoting in a shell: `--scopes pets:read,keys:manage`. */
export const scopes = optional((raw, what) => {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError(`${what} needs at least one scope of ${SCOPE_NAMES.join(', ')}.`);
  const unknown = names.find((name) => !SCOPE_NAMES.includes(name));
  if (unknown !== undefined) throw new UsageError(`Unknown scope "${unknown}" in ${what}; choose from ${SCOPE_NAMES.join(', ')}.`);
  return names;
});

/** --plan and, on a custom plan, its limits. */
export const PLAN_OPTIONS = { 'per-minute': id, 'per-day': id };

export function choiceOf(plan: string, limits: { 'per-minute'?: number; 'per-day'?: number }): PlanChoice {
  const custom = { perMinute: limits['per-minute'], perDay: limits['per-day'] };
  return asUsage(() => planChoice(plan, custom, { perMinute: '--per-minute', perDay: '--per-day' }));
}

/**
 * The modules' own rules (the plans', the audit log's, a usage period's), which the admin API answers with 400: broken
 * by an argument, a usage error, exit 2 before the database is opened; `options` names a field's option.
 */
export function asUsage<T>(check: () => T, options: Readonly<Record<string, string>> = {}): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ValidationFailedException)) throw error;
    // Each invalid value's message with its option named, or a rule's own message (a plan's) when it has none.
    const messages = error.details?.map(({ field, message }) => message.replace(field, options[field] ?? field));
    throw new UsageError(asSentence(messages?.length ? messages.join('; ') : error.message));
  }
}
