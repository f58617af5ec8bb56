/** Liveness, readiness (each module's indicators) and the bounded shutdown. */
export { HealthModule } from './health.module.js';
export { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';
