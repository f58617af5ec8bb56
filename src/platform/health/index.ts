export { HealthModule } from './health.module.js';
export { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';
