import { Injectable } from '@nestjs/common';
import { PLAN_CATALOGUE, PLAN_NAMES, isPlanName, type PlanLimits, type PlanName } from './plan-catalogue.js';
import { PlanRuleError } from './plan.errors.js';

export interface CustomLimits {
  perMinute?: number;
  perDay?: number;
}

/** Answers every question about plans; the rate limiter reads limits only through here. */
@Injectable()
export class PlansService {
  planNames(): readonly PlanName[] {
    return PLAN_NAMES;
  }

  /** Checks a plan choice: custom limits are required on a custom plan and refused on the others. */
  validate(plan: string, custom: CustomLimits): { plan: PlanName; limits?: PlanLimits } {
    if (!isPlanName(plan)) throw new PlanRuleError(`Unknown plan "${plan}"; choose one of ${PLAN_NAMES.join(', ')}.`);
    const definition = PLAN_CATALOGUE[plan];
    const given = custom.perMinute !== undefined || custom.perDay !== undefined;
    if (!definition.custom) {
      if (given) throw new PlanRuleError(`The ${plan} plan has fixed limits; --per-minute and --per-day are only for enterprise.`);
      return { plan };
    }
    if (custom.perMinute === undefined || custom.perDay === undefined) {
      throw new PlanRuleError(`The ${plan} plan needs both --per-minute and --per-day.`);
    }
    for (const [name, value] of Object.entries(custom)) {
      if (!Number.isSafeInteger(value) || (value as number) < 1) throw new PlanRuleError(`${name} must be a positive integer.`);
    }
    return { plan, limits: { perMinute: custom.perMinute, perDay: custom.perDay } };
  }

  /** The limits of a plan with fixed limits (callers without a key get those of one). */
  limitsOfPlan(plan: PlanName): PlanLimits {
    const definition = PLAN_CATALOGUE[plan];
    if (definition.custom) throw new PlanRuleError(`The ${plan} plan has no limits of its own.`);
    return definition.limits;
  }

  /** The limits that apply to a client: its plan's, or its own on a custom plan. */
  limitsFor(client: { plan: string; perMinuteLimit: number | null; perDayLimit: number | null }): PlanLimits {
    const definition = isPlanName(client.plan) ? PLAN_CATALOGUE[client.plan] : PLAN_CATALOGUE.free;
    if (!definition.custom) return definition.limits;
    return { perMinute: client.perMinuteLimit ?? 0, perDay: client.perDayLimit ?? 0 };
  }
}
