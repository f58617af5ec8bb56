/**
 * The service with one feature taken out, for the benchmark's table of what each feature costs
 * (docs/running-benchmarks.md): BENCH_WITHOUT names it. A bench-only entry point, built by
 * `tsc -p bench/service-without/tsconfig.json` into dist/bench/service-without and never part of the
 * image: the service itself has no switch that turns a promise off. It builds the application as
 * createApp() does, with one provider replaced through @nestjs/testing or, for helmet, the module
 * replaced by a no-op at load (no-helmet.hooks.ts).
 */
import 'reflect-metadata';
import { register } from 'node:module';

const without = process.env.BENCH_WITHOUT;
if (!['metrics', 'helmet', 'limiter', 'key-lookup'].includes(without ?? '')) {
  throw new Error(`BENCH_WITHOUT must be metrics, helmet, limiter or key-lookup (got "${without}")`);
}
if (without === 'helmet') register('./no-helmet.hooks.js', import.meta.url);

// Loaded after the hook, so the application's `import helmet` meets it.
const { buildWithout } = await import('./build-without.js');
const app = await buildWithout(without);
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
