import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { context, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { Registry } from 'prom-client';
import { HttpMetrics } from './http.metrics.js';
import { exposition, metricsRegistry, OPENMETRICS_TEXT, PROMETHEUS_TEXT } from './exposition.js';

/** One request through the middleware, within the span `tracerProvider` starts for it (as requestSpanMiddleware does for a sampled request). */
function requestThrough(metrics: HttpMetrics, tracerProvider: NodeTracerProvider): string {
  const response = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as Response;
  const request = { method: 'GET', route: { path: '/v1/pets' } } as unknown as Request;
  const traceId = tracerProvider.getTracer('test').startActiveSpan('GET', (span) => {
    metrics.middleware('public')(request, response, jest.fn());
    span.end();
    return span.spanContext().traceId;
  });
  response.emit('finish');
  return traceId;
}

const tracing = (enabled: boolean) => ({ getOrThrow: () => ({ enabled }) }) as unknown as ConfigService;

describe('HttpMetrics exemplars', () => {
  let registry: Registry;
  let metrics: HttpMetrics;

  beforeEach(() => {
    registry = metricsRegistry();
    metrics = new HttpMetrics(registry, tracing(true));
  });
  afterEach(() => {
    trace.disable();
    context.disable();
  });

  it("gives the request's bucket the trace id of a sampled request, in OpenMetrics only", async () => {
    const provider = new NodeTracerProvider();
    provider.register();
    const traceId = requestThrough(metrics, provider);
    expect(await exposition(registry, OPENMETRICS_TEXT)).toMatch(
      new RegExp(
        `^http_request_duration_seconds_bucket\\{le="[\\d.]+",method="GET",route="/v1/pets",status="200",listener="public"\\} 1 # \\{trace_id="${traceId}"\\} [\\d.e-]+ [\\d.]+$`,
        'm',
      ),
    );
    expect(await exposition(registry, PROMETHEUS_TEXT)).not.toContain('trace_id');
  });

  it('leaves no exemplar when the trace is not sampled, or tracing is off', async () => {
    const provider = new NodeTracerProvider({ sampler: new AlwaysOffSampler() });
    provider.register();
    requestThrough(metrics, provider);
    trace.disable();
    context.disable();
    requestThrough(metrics, new NodeTracerProvider());
    const text = await exposition(registry, OPENMETRICS_TEXT);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/v1\/pets",status="200",listener="public"\} 2$/m);
    expect(text).not.toContain('trace_id');
  });

  it('asks for no trace id while tracing is off in the configuration, even inside a sampled span', async () => {
    const provider = new NodeTracerProvider();
    provider.register();
    const untraced = metricsRegistry();
    requestThrough(new HttpMetrics(untraced, tracing(false)), provider);
    const text = await exposition(untraced, OPENMETRICS_TEXT);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/v1\/pets",status="200",listener="public"\} 1$/m);
    expect(text).not.toContain('trace_id');
  });
});
