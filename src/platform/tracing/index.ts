export { inSpan } from './in-span.js';
export { startTracing, TracingModule } from './start-tracing.js';
export type { TracingConfig } from './tracing.config.js';
