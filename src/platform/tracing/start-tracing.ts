import { register } from 'node:module';
import { tracingConfig, tracingSettings } from './tracing.config.js';

/** Probes and scrapes would drown the traces, as they would the request log. */
const UNTRACED = /^\/(health\/|metrics)/;

let stop: (() => Promise<void>) | undefined;

/**
 * Starts the OpenTelemetry SDK before the application is imported, so its instrumentations patch the
 * HTTP server, pg and ioredis as they load (the loader hook is for ES modules, ioredis here). Off, it
 * loads nothing. A bad OTEL_* value leaves it off: the configuration check then stops the start.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const settings = tracingSettings(env);
  if (!settings.enabled || hasBadValue(env)) return;
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [{ BatchSpanProcessor, NodeTracerProvider }, resources, { registerInstrumentations }, http, pg, ioredis, exporter] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-http'),
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
      new http.HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED.test(request.url ?? ''),
        // The service calls no HTTP server; the exporter's own requests are never traced.
        disableOutgoingRequestInstrumentation: true,
        // The request id the service answered with, so a log line and its trace find each other.
        headersToSpanAttributes: { server: { responseHeaders: ['x-request-id'] } },
      }),
      // Statements without their values (no key hash), and only within a request.
      new pg.PgInstrumentation({ requireParentSpan: true }),
      new ioredis.IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  await waitForAllMessagesAcknowledged();
  stop = () => provider.shutdown();
}

/** Exports the spans still buffered; called once the servers have closed. */
export async function stopTracing(): Promise<void> {
  await stop?.();
  stop = undefined;
}

function hasBadValue(env: NodeJS.ProcessEnv): boolean {
  return Object.entries(tracingConfig.checks).some(([name, check]) => Boolean(env[name]) && check(env[name]!, env) !== undefined);
}
