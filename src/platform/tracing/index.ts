export { inSpan } from './in-span.js';
export { startTracing } from './start-tracing.js';
export { tracingConfig, type TracingConfig } from './tracing.config.js';
export { TracingModule } from './tracing.module.js';
