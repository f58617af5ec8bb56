import { startTracing } from './platform/tracing/index.js';

// Tracing first, when configured: its instrumentations patch pg and ioredis as the server loads them.
await startTracing();
await import('./server.js');
