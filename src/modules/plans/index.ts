export { ClientsService } from './clients.service.js';
export type { ClientPage, ClientView } from './clients.service.js';
export { FIXED_PLAN_NAMES, PLAN_CATALOGUE, PLAN_NAMES, isPlanName, limitsFor } from './plan-catalogue.js';
export type { PlanLimits, PlanName } from './plan-catalogue.js';
export { CLIENT_NAME_MAX_LENGTH, clientName, planChoice, type LimitNames, type PlanChoice } from './plan-rules.js';
export { ClientNotFoundError, PlanRuleError } from './plan.errors.js';
export { PlansModule } from './plans.module.js';
