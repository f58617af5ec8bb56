export { HttpMetrics } from './http.metrics.js';
export { MetricsModule } from './metrics.module.js';
