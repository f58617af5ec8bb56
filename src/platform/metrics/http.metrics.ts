import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Histogram, Registry } from 'prom-client';
import { listenerOf, matchedRoute } from '../../common/index.js';

/** Request duration by route pattern (never the raw path: bounded label values), status, and the listener that took it. */
@Injectable()
export class HttpMetrics {
  private readonly duration: Histogram<'method' | 'route' | 'status' | 'listener'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, matched route, status code and listener (public or admin).',
      labelNames: ['method', 'route', 'status', 'listener'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
  }

  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const end = this.duration.startTimer();
    response.once('finish', () => {
      end({
        method: request.method,
        route: matchedRoute(request) ?? 'unmatched',
        status: String(response.statusCode),
        listener: listenerOf(request),
      });
    });
    next();
  };
}
