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
