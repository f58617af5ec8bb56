import { Injectable } from '@nestjs/common';
import { PLAN_CATALOGUE, isPlanName, type PlanLimits, type PlanName } from './plan-catalogue.js';
import { PlanRuleError } from './plan.errors.js';

/** Answers every question about plan limits; the rate limiter reads limits only through here. */
@Injectable()
export class PlansService {
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
