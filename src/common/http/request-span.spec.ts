import { context, propagation, trace } from '@opentelemetry/api';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-node';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { requestContext, requestContextMiddleware } from '../context/request-context.js';
import { recordErrorCode, requestSpanMiddleware, traceFields, traceFieldsOf } from './request-span.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const traceparent = (flags: '01' | '00') => `00-${TRACE_ID}-${CALLER_SPAN}-${flags}`;

/** What a handler saw of the context and of its request's ids. */
interface Seen {
  active?: string;
  fields?: ReturnType<typeof traceFieldsOf>;
  mixin?: ReturnType<typeof traceFields>;
}

/** The pipeline's start as app.pipeline.ts orders it, a route, a refusal before routing, and a failing route. */
function application(): { app: Express; seen: Seen } {
  const app = express();
  const seen: Seen = {};
  app.use(requestContextMiddleware);
  app.use(requestSpanMiddleware);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.get('x-refuse') === undefined) return next();
    recordErrorCode(req, 'rate_limited');
    res.status(429).end();
  });
  app.get('/v1/pets/:petId', (req: Request, res: Response) => {
    seen.active = trace.getActiveSpan()?.spanContext().spanId;
    seen.fields = traceFieldsOf(req);
    seen.mixin = traceFields();
    requestContext().set('principal', { keyId: 3, clientId: 7, scopes: ['pets:read'] });
    res.json({ id: 1 });
  });
  app.get('/v1/broken', (req: Request, res: Response) => {
    recordErrorCode(req, 'internal_error');
    res.status(500).end();
  });
  app.get('/health/live', (_req: Request, res: Response) => void res.end());
  return { app, seen };
}

// First: once a tracer has been handed a provider's tracer, the API keeps it for the process's life.
describe('request spans with tracing off', () => {
  it('passes every request on untouched: no span, no ids', async () => {
    const { app, seen } = application();
    await request(app).get('/v1/pets/1').set('traceparent', traceparent('01')).expect(200);
    expect(seen).toEqual({ active: undefined, fields: {}, mixin: {} });
  });
});

describe('request spans with tracing on', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const exported = (): ReadableSpan[] => exporter.getFinishedSpans();

  beforeAll(() => provider.register());
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it("continues the caller's trace, names the span by its route, and carries the request's facts but no credential", async () => {
    const { app, seen } = application();
    const response = await request(app)
      .get('/v1/pets/12?fields=name')
      .set('traceparent', traceparent('01'))
      .set('authorization', 'Bearer pets_secret');
    const [span] = exported();
    expect(span.name).toBe('GET /v1/pets/:petId');
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/v1/pets/12',
      'http.route': '/v1/pets/:petId',
      'http.response.status_code': 200,
      'http.response.header.x-request-id': [response.headers['x-request-id']],
      'pets.client.id': 7,
    });
    expect(JSON.stringify(span.attributes)).not.toContain('pets_secret');
    // The handler ran in the span's context, and its log lines would carry the span's ids.
    expect(seen.active).toBe(span.spanContext().spanId);
    expect(seen.fields).toEqual({ trace_id: TRACE_ID, span_id: span.spanContext().spanId });
    expect(seen.mixin).toEqual(seen.fields);
  });

  it('starts a new trace without a traceparent', async () => {
    await request(app()).get('/v1/pets/1');
    const [span] = exported();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
  });

  it("names a request refused before routing by the route that would have served it, with the refusal's code", async () => {
    await request(app()).get('/v1/pets/12').set('x-refuse', '1').expect(429);
    const [span] = exported();
    expect(span.name).toBe('GET /v1/pets/:petId');
    expect(span.attributes).toMatchObject({ 'pets.error.code': 'rate_limited', 'http.response.status_code': 429 });
  });

  it('leaves a path no route serves named by its method only, and marks a 5xx as an error', async () => {
    await request(app()).post('/v1/nothing').expect(404);
    await request(app()).get('/v1/broken').expect(500);
    const [unknown, broken] = exported();
    expect(unknown.name).toBe('POST');
    expect(unknown.attributes['http.route']).toBeUndefined();
    expect(broken.status.code).toBe(2);
    expect(broken.attributes['pets.error.code']).toBe('internal_error');
  });

  it('keeps an unsampled request out of the context, exporting nothing, while its log line keeps the ids', async () => {
    const { app, seen } = application();
    await request(app).get('/v1/pets/1').set('traceparent', traceparent('00')).expect(200);
    expect(exported()).toEqual([]);
    expect(seen.active).toBeUndefined();
    expect(seen.mixin).toEqual({});
    expect(seen.fields?.trace_id).toBe(TRACE_ID);
  });

  it('traces no probe', async () => {
    await request(app()).get('/health/live').expect(200);
    expect(exported()).toEqual([]);
  });

  const app = () => application().app;
});
