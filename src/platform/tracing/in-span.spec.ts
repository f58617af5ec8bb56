import { context, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { inSpan } from './in-span.js';

const exporter = new InMemorySpanExporter();
// Samples every span, even under a parent that is not sampled: inSpan alone must keep that parent's work unrecorded.
const provider = new NodeTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
const request = provider.getTracer('in-span.spec');

beforeAll(() => provider.register());
afterEach(() => exporter.reset());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const names = () => exporter.getFinishedSpans().map(({ name }) => name);

describe('inSpan', () => {
  it('runs the work without a span when there is no active span', async () => {
    await expect(
      inSpan('rate_limit.decision', (span) => {
        expect(span.isRecording()).toBe(false);
        span.setAttribute('pets.rate_limit.outcome', 'admitted');
        return Promise.resolve('done');
      }),
    ).resolves.toBe('done');
    expect(names()).toEqual([]);
  });

  it('creates no span under a parent that is not recorded (not sampled)', async () => {
    const unsampled = trace.wrapSpanContext({ traceId: '1'.repeat(32), spanId: '2'.repeat(16), traceFlags: TraceFlags.NONE });
    await context.with(trace.setSpan(context.active(), unsampled), () =>
      expect(inSpan('api_key.lookup', (span) => Promise.resolve(span.isRecording()))).resolves.toBe(false),
    );
    expect(names()).toEqual([]);
  });

  it('runs the work in a child of the recorded parent, active while it runs, with its attributes, ended when it settles', async () => {
    await request.startActiveSpan('GET /v1/pets', async (parent) => {
      const result = await inSpan('rate_limit.decision', async (span) => {
        expect(trace.getActiveSpan()).toBe(span);
        expect(span.isRecording()).toBe(true);
        span.setAttributes({ 'pets.rate_limit.operation': 'consume', 'pets.rate_limit.outcome': 'admitted' });
        await inSpan('api_key.lookup', () => Promise.resolve());
        return 42;
      });
      expect(result).toBe(42);
      parent.end();
    });
    const [lookup, decision, parent] = exporter.getFinishedSpans();
    expect([lookup.name, decision.name, parent.name]).toEqual(['api_key.lookup', 'rate_limit.decision', 'GET /v1/pets']);
    expect(decision.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(lookup.parentSpanContext?.spanId).toBe(decision.spanContext().spanId);
    expect(decision.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(decision.attributes).toEqual({ 'pets.rate_limit.operation': 'consume', 'pets.rate_limit.outcome': 'admitted' });
    expect(decision.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records the exception and an error status when the work throws, ends the span and rethrows', async () => {
    const failure = new Error('Redis cannot be reached');
    await request.startActiveSpan('GET /v1/pets', async (parent) => {
      await expect(
        inSpan('rate_limit.decision', () => {
          throw failure;
        }),
      ).rejects.toBe(failure);
      parent.end();
    });
    const decision = exporter.getFinishedSpans().find(({ name }) => name === 'rate_limit.decision')!;
    expect(decision.status.code).toBe(SpanStatusCode.ERROR);
    expect(decision.events).toEqual([
      expect.objectContaining({
        name: 'exception',
        attributes: expect.objectContaining({ 'exception.message': 'Redis cannot be reached', 'exception.type': 'Error' }),
      }),
    ]);
    expect(decision.ended).toBe(true);
  });
});
