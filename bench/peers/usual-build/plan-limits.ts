import type { Client } from './entities.js';

export interface PlanLimits {
  perMinute: number;
  perDay: number;
}

/** The service's plan catalogue (docs/rate-limiting.md); `enterprise` limits are per client. */
const FIXED: Readonly<Record<string, PlanLimits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** A client's limits, or undefined for a plan this build does not know (its keys are refused). */
export function limitsOf(client: Client): PlanLimits | undefined {
  if (client.plan !== 'enterprise') return FIXED[client.plan];
  if (client.perMinuteLimit === null || client.perDayLimit === null) return undefined;
  return { perMinute: Number(client.perMinuteLimit), perDay: Number(client.perDayLimit) };
}
