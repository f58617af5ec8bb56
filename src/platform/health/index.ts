export { GracefulShutdown } from './graceful-shutdown.js';
export { HealthModule } from './health.module.js';
export { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';
export { ShutdownModule } from './shutdown.module.js';
