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
import type { Express, NextFunction, Request, Response } from 'express';
import { routePatternFor } from './express-routes.js';
import { matchedRoute } from './matched-route.js';
import { contextOf, requestContext } from '../context/request-context.js';

/** The semantic conventions' names, and the service's own (`pets.*`); none holds a credential. */
export const REQUEST_SPAN_ATTRIBUTES = {
  method: 'http.request.method',
  path: 'url.path',
  scheme: 'url.scheme',
  protocolVersion: 'network.protocol.version',
  clientAddress: 'client.address',
  userAgent: 'user_agent.original',
  route: 'http.route',
  status: 'http.response.status_code',
  requestId: 'http.response.header.x-request-id',
  clientId: 'pets.client.id',
  errorCode: 'pets.error.code',
} as const;

/** Probes and scrapes would drown the traces, as they would the request log. */
const UNTRACED = /^\/(health\/|metrics)/;

const tracer = trace.getTracer('pet-adoption-service');

/**
 * The request's server span, continuing the caller's `traceparent`. Only a sampled request enters the
 * span's context (so its database and Redis calls become child spans); the others keep their ids for
 * the log line and cost nothing more. While tracing is off, the API's no-op tracer answers and nothing is kept.
 * The service makes this span itself rather than through @opentelemetry/instrumentation-http, which binds
 * every request's and response's emitters and builds the attributes of spans it never records (docs/architecture.md#tracing).
 */
export function requestSpanMiddleware(router: Express): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    if (UNTRACED.test(request.originalUrl)) return next();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER }, parent);
    if (!isSpanContextValid(span.spanContext())) return next();
    requestContext().set('span', span);
    if (!span.isRecording()) return next();
    const A = REQUEST_SPAN_ATTRIBUTES;
    span.setAttributes({
      [A.method]: request.method,
      [A.path]: request.originalUrl.split('?')[0],
      [A.scheme]: request.protocol,
      [A.protocolVersion]: request.httpVersion,
      [A.clientAddress]: request.ip,
      [A.userAgent]: request.get('user-agent'),
    });
    response.once('close', () => endRequestSpan(span, router, request, response));
    context.with(trace.setSpan(parent, span), next);
  };
}

/** Named by its route pattern, also when the answer came before routing (a 429); the client and the request id the caller got. */
function endRequestSpan(span: Span, router: Express, request: Request, response: Response): void {
  const A = REQUEST_SPAN_ATTRIBUTES;
  const route = matchedRoute(request) ?? routePatternFor(router, request.method, request.originalUrl.split('?')[0]);
  if (route) span.updateName(`${request.method} ${route}`).setAttribute(A.route, route);
  const { requestId, principal } = contextOf(request);
  span.setAttributes({
    [A.status]: response.statusCode,
    [A.clientId]: principal?.clientId,
    [A.requestId]: requestId === undefined ? undefined : [requestId],
  });
  if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Puts the Error object's code on the request's span: the refusals (401, 403, 429) are what operators look for. */
export function recordErrorCode(request: Request, code: string): void {
  contextOf(request).span?.setAttribute(REQUEST_SPAN_ATTRIBUTES.errorCode, code);
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
