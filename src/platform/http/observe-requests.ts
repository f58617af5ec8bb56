import { ConfigService } from '@nestjs/config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { answerUnparsableRequests, requestContextMiddleware, requestSpanMiddleware } from '../../common/index.js';
import { HTTP_LOGGER } from '../logging/index.js';
import { HttpMetrics } from '../metrics/index.js';
import type { TracingConfig } from '../tracing/index.js';

/**
 * The start of a listener's pipeline, the public port's and the admin's alike: unparsable requests answered, then each
 * request's context, span, helmet's headers, log and metrics.
 */
export function observeRequests(app: NestExpressApplication, listener: 'public' | 'admin'): void {
  answerUnparsableRequests(app.getHttpServer());
  app.use(requestContextMiddleware);
  if (app.get(ConfigService).getOrThrow<TracingConfig>('tracing').enabled) app.use(requestSpanMiddleware);
  app.use(helmet());
  app.use(app.get<RequestHandler>(HTTP_LOGGER));
  app.use(app.get(HttpMetrics).middleware(listener));
}
