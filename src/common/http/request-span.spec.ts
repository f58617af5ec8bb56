import { EventEmitter } from 'node:events';
import { jest } from '@jest/globals';
import { context, trace, type Span } from '@opentelemetry/api';
import { RPCType, setRPCMetadata, type RPCMetadata } from '@opentelemetry/core';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import express, { type Request, type Response } from 'express';
import { setPrincipal } from './principal.js';
import { recordErrorCode, requestSpanMiddleware, traceFields } from './request-span.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('request-span.spec');

const router = express();
router.get('/v1/pets/:id', () => undefined);

/** Runs `work` as the HTTP instrumentation runs a request: its span active and its RPC metadata in the context. */
function inRequest<T>(span: Span, work: (metadata: RPCMetadata) => T): T {
  const metadata: RPCMetadata = { type: RPCType.HTTP, span };
  return context.with(setRPCMetadata(trace.setSpan(context.active(), span), metadata), () => work(metadata));
}

const unrecorded = () => trace.wrapSpanContext({ traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: 0 });
const attributesOf = (span: Span) => {
  span.end();
  return exporter.getFinishedSpans().find((finished) => finished.spanContext().spanId === span.spanContext().spanId)!.attributes;
};

beforeAll(() => provider.register());
afterEach(() => exporter.reset());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe('recordErrorCode', () => {
  it("puts the Error object's code on the request's recorded span", () => {
    const span = tracer.startSpan('GET');
    inRequest(span, () => recordErrorCode('invalid_api_key'));
    expect(attributesOf(span)).toEqual({ 'pets.error.code': 'invalid_api_key' });
  });

  it('touches no span that is not recorded, and needs no request at all', () => {
    const span = unrecorded();
    const setAttribute = jest.spyOn(span, 'setAttribute');
    inRequest(span, () => recordErrorCode('rate_limited'));
    expect(setAttribute).not.toHaveBeenCalled();
    expect(() => recordErrorCode('not_found')).not.toThrow();
  });

  it("writes on the request's span, not on a child span active at the time", () => {
    const span = tracer.startSpan('GET');
    inRequest(span, () => tracer.startActiveSpan('child', (child) => (recordErrorCode('insufficient_scope'), child.end())));
    expect(attributesOf(span)).toEqual({ 'pets.error.code': 'insufficient_scope' });
    expect(exporter.getFinishedSpans().find(({ name }) => name === 'child')!.attributes).toEqual({});
  });
});

describe('requestSpanMiddleware', () => {
  const middleware = requestSpanMiddleware(router);

  function serve(span: Span, request: Partial<Request>) {
    const response = new EventEmitter() as EventEmitter & Response;
    const next = jest.fn();
    const metadata = inRequest(span, (recorded) => (middleware(request as Request, response, next), recorded));
    return { metadata, next, finish: () => response.emit('finish'), response };
  }

  it('names the span by the route that served the request and tags the client, once the response is finished', () => {
    const span = tracer.startSpan('GET');
    const request = { method: 'GET', originalUrl: '/v1/pets/12?fields=name', route: { path: '/v1/pets/:id' } } as unknown as Request;
    const { metadata, next, finish } = serve(span, request);
    expect(next).toHaveBeenCalledTimes(1);
    setPrincipal(request, { keyId: 3, clientId: 7, scopes: ['pets:read'] });
    expect(metadata.route).toBeUndefined();
    finish();
    expect(metadata.route).toBe('/v1/pets/:id');
    expect(attributesOf(span)).toEqual({ 'pets.client.id': 7 });
  });

  it('names a request answered before routing (a 429) by the pattern of the route that would have served it; no client, no tag', () => {
    const span = tracer.startSpan('HEAD');
    const { metadata, finish } = serve(span, { method: 'HEAD', originalUrl: '/v1/pets/12?x=1' });
    finish();
    expect(metadata.route).toBe('/v1/pets/:id');
    expect(attributesOf(span)).toEqual({});
  });

  it('leaves a path no route serves unnamed', () => {
    const span = tracer.startSpan('POST');
    const { metadata, finish } = serve(span, { method: 'POST', originalUrl: '/v1/pets/12' });
    finish();
    expect(metadata.route).toBeUndefined();
  });

  it('does nothing but call next when the request is not recorded', () => {
    const { next, response, metadata, finish } = serve(unrecorded(), { method: 'GET', originalUrl: '/v1/pets/1' });
    expect(next).toHaveBeenCalledTimes(1);
    expect(response.listenerCount('finish')).toBe(0);
    finish();
    expect(metadata.route).toBeUndefined();
  });
});

describe('traceFields', () => {
  it('gives the active span’s trace and span ids', () => {
    tracer.startActiveSpan('GET', (span) => {
      expect(traceFields()).toEqual({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
      span.end();
    });
  });

  it('gives nothing without an active span, or with an invalid one', () => {
    expect(traceFields()).toEqual({});
    const invalid = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });
    context.with(trace.setSpan(context.active(), invalid), () => expect(traceFields()).toEqual({}));
  });
});
