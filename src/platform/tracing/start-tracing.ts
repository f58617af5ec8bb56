import { Module, type OnApplicationShutdown } from '@nestjs/common';
import { register } from 'node:module';
import { ModuleParts } from '../../common/index.js';
import { tracingConfig, tracingSettings } from './tracing.config.js';

let stop: (() => Promise<void>) | undefined;

/**
 * Starts the OpenTelemetry SDK before the application is imported, so pg and ioredis are patched as they load (ioredis
 * through the ES module loader hook); the request's own span is requestSpanMiddleware's. A bad OTEL_* value leaves it
 * off: the configuration check then stops the start.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const badValue = Object.entries(tracingConfig.checks).some(([name, check]) => Boolean(env[name]) && check(env[name]!, env) !== undefined);
  const settings = tracingSettings(env);
  if (!settings.enabled || badValue) return;
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [{ BatchSpanProcessor, NodeTracerProvider }, resources, { registerInstrumentations }, pg, ioredis, exporter] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    settings.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  // The variables (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) override the service's own name.
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'pet-adoption-service' })
    .merge(resources.detectResources({ detectors: [resources.envDetector, resources.hostDetector, resources.processDetector] }));
  // Endpoint, headers, sampler and batching come from the standard OTEL_* variables.
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new exporter.OTLPTraceExporter())] });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // Statements without their values (no key hash), only within a sampled request, and not the pool's connection checkouts.
      new pg.PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
      new ioredis.IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  await waitForAllMessagesAcknowledged();
  stop = () => provider.shutdown();
}

/** Exports the spans still buffered, once Nest's servers have closed: the last requests' spans too. */
@ModuleParts({ config: [tracingConfig] })
@Module({})
export class TracingModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stop?.();
    stop = undefined;
  }
}
