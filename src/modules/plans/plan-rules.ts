import { PLAN_CATALOGUE, PLAN_NAMES, isPlanName, type PlanLimits, type PlanName } from './plan-catalogue.js';
import { PlanRuleError } from './plan.errors.js';

/** Also the `clients.name` column's length. */
export const CLIENT_NAME_MAX_LENGTH = 200;

export type CustomLimits = Partial<PlanLimits>;

export interface PlanChoice {
  plan: PlanName;
  limits?: PlanLimits;
}

/** What the limits are called where they are given: the admin API's fields unless a caller names its own (the CLI's options). */
export type LimitNames = Record<keyof PlanLimits, string>;

const FIELD_NAMES: LimitNames = { perMinute: 'perMinute', perDay: 'perDay' };

/** The rules are pure, so the CLI checks its arguments before it opens the database; `what` names the value in the error. */
export function clientName(raw: string, what = 'A client name'): string {
  const name = raw.trim();
  if (!name || name.length > CLIENT_NAME_MAX_LENGTH) {
    throw new PlanRuleError(`${what} must be 1 to ${CLIENT_NAME_MAX_LENGTH} characters, not only white space.`);
  }
  return name;
}

/** Checks a plan choice: custom limits are required on a custom plan and refused on the others. */
export function planChoice(plan: string, custom: CustomLimits, names: LimitNames = FIELD_NAMES): PlanChoice {
  if (!isPlanName(plan)) throw new PlanRuleError(`Unknown plan "${plan}"; choose one of ${PLAN_NAMES.join(', ')}.`);
  const definition = PLAN_CATALOGUE[plan];
  const given = custom.perMinute !== undefined || custom.perDay !== undefined;
  if (!definition.custom) {
    if (given)
      throw new PlanRuleError(`The ${plan} plan has fixed limits; ${names.perMinute} and ${names.perDay} are only for enterprise.`);
    return { plan };
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
