export { GracefulShutdown, ShutdownModule } from './graceful-shutdown.js';
export { HealthModule } from './health.controller.js';
export { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';
