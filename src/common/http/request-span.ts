import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Span,
} from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { routePatternFor } from './express-routes.js';
import { contextOf, requestContext } from '../context/request-context.js';

/** Probes and scrapes would drown the traces, as they would the request log. */
const UNTRACED = /^\/(health\/|metrics)/;

const tracer = trace.getTracer('pet-adoption-service');

/**
 * The request's server span, continuing the caller's `traceparent`: only a sampled one enters the context (its database and Redis
 * calls become child spans), the others keep their ids for the log line. Made here, as instrumentation-http costs every request
 * even unsampled (docs/architecture.md#tracing).
 */
export function requestSpanMiddleware(request: Request, response: Response, next: NextFunction): void {
  if (UNTRACED.test(request.originalUrl)) return next();
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER }, parent);
  if (!isSpanContextValid(span.spanContext())) return next();
  requestContext().set('span', span);
  if (!span.isRecording()) return next();
  // The semantic conventions' names, and the service's own (`pets.*`); none holds a credential.
  span.setAttributes({
    'http.request.method': request.method,
    'url.path': request.originalUrl.split('?')[0],
    'url.scheme': request.protocol,
    'network.protocol.version': request.httpVersion,
    'client.address': request.ip,
    'user_agent.original': request.get('user-agent'),
  });
  response.once('close', () => endRequestSpan(span, request, response));
  context.with(trace.setSpan(parent, span), next);
}

/** The route pattern that served a request, never the raw path (labels stay few); not Nest's catch-all `*path`. */
export function matchedRoute(request: Request): string | undefined {
  const path = (request.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.startsWith('*') ? path : undefined;
}

/** Named by its route pattern, also when the answer came before routing (a 429); the client and the request id the caller got. */
function endRequestSpan(span: Span, request: Request, response: Response): void {
  const route = matchedRoute(request) ?? routePatternFor(request.app, request.method, request.originalUrl.split('?')[0]);
  if (route) span.updateName(`${request.method} ${route}`).setAttribute('http.route', route);
  const { requestId, principal } = contextOf(request);
  span.setAttributes({
    'http.response.status_code': response.statusCode,
    'pets.client.id': principal?.clientId,
    'http.response.header.x-request-id': requestId === undefined ? undefined : [requestId],
  });
  if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Puts the Error object's code on the request's span: the refusals (401, 403, 429) are what operators look for. */
export function recordErrorCode(request: Request, code: string): void {
  contextOf(request).span?.setAttribute('pets.error.code', code);
}

type TraceFields = { trace_id?: string; span_id?: string };

const fieldsOf = (span: Span | undefined): TraceFields => {
  const spanContext = span?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
};

/** `trace_id` and `span_id` of a request's span, sampled or not, for its log line; nothing while tracing is off. */
export const traceFieldsOf = (request: Request): TraceFields => fieldsOf(contextOf(request).span);

/** The same for any line written within a sampled request (pino's mixin). */
export const traceFields = (): TraceFields => fieldsOf(trace.getActiveSpan());

/** The trace id of the active span when its trace is sampled (exported), for an exemplar; undefined otherwise. */
export function sampledTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && spanContext.traceFlags & TraceFlags.SAMPLED && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
