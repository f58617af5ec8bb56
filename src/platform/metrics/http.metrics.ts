import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Histogram, Registry } from 'prom-client';
import { matchedRoute, sampledTraceId } from '../../common/index.js';
import type { TracingConfig } from '../tracing/index.js';

/** prom-client types an exemplar's labels (`trace_id`) with the metric's label names. */
type Label = 'method' | 'route' | 'status' | 'listener' | 'trace_id';

/** Request duration by route pattern (bounded labels), status and listener; a sampled trace's id is its bucket's exemplar. */
@Injectable()
export class HttpMetrics {
  private readonly duration: Histogram<Label>;
  private readonly traced: boolean;

  constructor(registry: Registry, config: ConfigService) {
    this.traced = config.getOrThrow<TracingConfig>('tracing').enabled;
    this.duration = new Histogram<Label>({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, matched route, status code and listener (public or admin).',
      labelNames: ['method', 'route', 'status', 'listener'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      // Untraced, the histogram is prom-client's plain one: its exemplar path hashes the labels again and keeps an exemplar a bucket.
      enableExemplars: this.traced,
      registers: [registry],
    });
  }

  /** Measures one listener's requests; runs within a sampled request's trace context (requestSpanMiddleware), so the trace id is read at its start. */
  middleware(listener: 'public' | 'admin'): RequestHandler {
    return (request: Request, response: Response, next: NextFunction): void => {
      const traceId = this.traced ? sampledTraceId() : undefined;
      // Without a sampled trace, no exemplar: prom-client then skips it.
      const end = this.duration.startTimer(undefined, traceId === undefined ? undefined : { trace_id: traceId });
      response.once('finish', () => {
        end({ method: request.method, route: matchedRoute(request) ?? 'unmatched', status: String(response.statusCode), listener });
      });
      next();
    };
  }
}
