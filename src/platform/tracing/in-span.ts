import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const tracer = trace.getTracer('pet-adoption-service');

/** A span to add attributes to when the request's span is not recorded: nothing is created then. */
const UNRECORDED = trace.wrapSpanContext({ traceId: '', spanId: '', traceFlags: 0 });

/** Runs `work` in a child span, or as is without a recorded parent: `work` builds attributes only when `span.isRecording()`. */
export function inSpan<T>(name: string, work: (span: Span) => Promise<T>): Promise<T> {
  if (!trace.getActiveSpan()?.isRecording()) return work(UNRECORDED);
  return tracer.startActiveSpan(name, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
