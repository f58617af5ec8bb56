import { context, isSpanContextValid, trace, TraceFlags } from '@opentelemetry/api';
import { getRPCMetadata, RPCType, type RPCMetadata } from '@opentelemetry/core';
import type { Express, NextFunction, Request, Response } from 'express';
import { routePatternFor } from './express-routes.js';
import { matchedRoute } from './matched-route.js';
import { principalOf } from './principal.js';

/** What the service adds to a request's span; never a credential. */
export const REQUEST_SPAN_ATTRIBUTES = { errorCode: 'pets.error.code', clientId: 'pets.client.id' } as const;

/**
 * The HTTP instrumentation's record of the request in progress, shared through the context (@opentelemetry/core's
 * RPC metadata): undefined while tracing is off or does not sample the request.
 */
function recordedRequest(): RPCMetadata | undefined {
  const metadata = getRPCMetadata(context.active());
  return metadata?.type === RPCType.HTTP && metadata.span.isRecording() ? metadata : undefined;
}

/** Puts the Error object's code on the request's span: the refusals (401, 403, 429) are what operators look for. */
export function recordErrorCode(code: string): void {
  recordedRequest()?.span.setAttribute(REQUEST_SPAN_ATTRIBUTES.errorCode, code);
}

/**
 * Names the request's span by its route pattern, also when the answer came before routing (a 429), and
 * tags it with the calling client. The instrumentation reads `route` when the response closes, after `finish`.
 */
export function requestSpanMiddleware(router: Express): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    const recorded = recordedRequest();
    if (recorded) {
      response.once('finish', () => {
        recorded.route = matchedRoute(request) ?? routePatternFor(router, request.method, request.originalUrl.split('?')[0]);
        const clientId = principalOf(request)?.clientId;
        if (clientId !== undefined) recorded.span.setAttribute(REQUEST_SPAN_ATTRIBUTES.clientId, clientId);
      });
    }
    next();
  };
}

/** `trace_id` and `span_id` of the active span, for log lines; nothing while tracing is off. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
}

/** The trace id of the active span when its trace is sampled (exported), for an exemplar; undefined otherwise. */
export function sampledTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && spanContext.traceFlags & TraceFlags.SAMPLED && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
