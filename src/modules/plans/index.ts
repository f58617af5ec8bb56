export { ClientsService, PLAN_CHANGED, type ClientView, type PlanChanged } from './clients.service.js';
export { CLIENT_NAME_MAX_LENGTH, clientName, ClientNotFoundError, FIXED_PLAN_NAMES, limitsFor } from './plan-catalogue.js';
export { PLAN_CATALOGUE, PLAN_NAMES, planChoice, type PlanChoice, type PlanLimits } from './plan-catalogue.js';
export { PlansModule } from './plans.module.js';
