import { HttpStatus } from '@nestjs/common';
import { ApiError, ApiException, ValidationFailedException } from '../../common/index.js';

/** The plans we sell (interface document, "Rate limits by plan"). Data, not scattered literals. */
export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;

export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

/** `custom` plans carry per-client limits set by the operator. */
export type PlanDefinition = { custom: false; limits: PlanLimits } | { custom: true };

export const PLAN_CATALOGUE: Readonly<Record<PlanName, PlanDefinition>> = {
  free: { custom: false, limits: { perMinute: 60, perDay: 1_000 } },
  pro: { custom: false, limits: { perMinute: 300, perDay: 10_000 } },
  business: { custom: false, limits: { perMinute: 1_000, perDay: 100_000 } },
  enterprise: { custom: true },
};

/** The plans with limits of their own: those anonymous callers can be given. */
export const FIXED_PLAN_NAMES = PLAN_NAMES.filter((plan) => !PLAN_CATALOGUE[plan].custom);

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** A plan's limits, or on a custom plan the client's `own`; the rate limiter reads limits only through here. */
export function limitsFor(plan: string, own?: { perMinuteLimit: number | null; perDayLimit: number | null }): PlanLimits {
  const definition = isPlanName(plan) ? PLAN_CATALOGUE[plan] : PLAN_CATALOGUE.free;
  return definition.custom ? { perMinute: own?.perMinuteLimit ?? 0, perDay: own?.perDayLimit ?? 0 } : definition.limits;
}

/** A broken plan rule: on the admin API a 400 `validation_failed`, with the message the command-line tool prints. */
export class PlanRuleError extends ValidationFailedException {
  constructor(message: string) {
    super([], message);
  }
}

/** On the admin API a 404 `not_found`, with the message the command-line tool prints. */
@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class ClientNotFoundError extends ApiException {
  constructor(id: number) {
    super(`No client with id ${id}.`);
  }
}

/** Also the `clients.name` column's length. */
export const CLIENT_NAME_MAX_LENGTH = 200;

export type CustomLimits = Partial<PlanLimits>;

export interface PlanChoice {
  plan: PlanName;
  limits?: PlanLimits;
}

/** The rules are pure, so the CLI checks its arguments before it opens the database; `what` names the value in the error. */
export function clientName(raw: string, what = 'A client name'): string {
  const name = raw.trim();
  if (!name || name.length > CLIENT_NAME_MAX_LENGTH) {
    throw new PlanRuleError(`${what} must be 1 to ${CLIENT_NAME_MAX_LENGTH} characters, not only white space.`);
  }
  return name;
}

/**
 * Checks a plan choice: custom limits are required on a custom plan and refused on the others. `names` are what the limits
 * are called where they are given: the admin API's fields unless a caller names its own (the CLI's options).
 */
export function planChoice(plan: string, custom: CustomLimits, names = { perMinute: 'perMinute', perDay: 'perDay' }): PlanChoice {
  if (!isPlanName(plan)) throw new PlanRuleError(`Unknown plan "${plan}"; choose one of ${PLAN_NAMES.join(', ')}.`);
  if (!PLAN_CATALOGUE[plan].custom) {
    if (custom.perMinute === undefined && custom.perDay === undefined) return { plan };
    throw new PlanRuleError(`The ${plan} plan has fixed limits; ${names.perMinute} and ${names.perDay} are only for enterprise.`);
  }
  if (custom.perMinute === undefined || custom.perDay === undefined) {
    throw new PlanRuleError(`The ${plan} plan needs both ${names.perMinute} and ${names.perDay}.`);
  }
  for (const name of ['perMinute', 'perDay'] as const) {
    const value = custom[name]!;
    if (!Number.isSafeInteger(value) || value < 1) throw new PlanRuleError(`${names[name]} must be a positive integer.`);
  }
  return { plan, limits: { perMinute: custom.perMinute, perDay: custom.perDay } };
}
