import { RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { AppModule } from './app.module.js';
import { allowedHostMiddleware } from './common/http/allowed-host.middleware.js';
import { requestIdMiddleware } from './common/http/request-id.middleware.js';
import { answerUnparsableRequests } from './common/http/unparsable-request.handler.js';
import type { AppConfig } from './config/app.config.js';
import { validateServerEnvironment } from './config/env.validation.js';
import { HTTP_LOGGER } from './logging/logging.module.js';
import { PinoLoggerService } from './logging/pino-logger.service.js';
import { HttpMetrics } from './metrics/http.metrics.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './rate-limit/rate-limit.openapi.js';
import { RateLimitMiddleware } from './rate-limit/rate-limit.middleware.js';

export const API_PREFIX = 'v1';

/** Options every instance of the application is created with (bodies are parsed per route). */
export const NEST_APPLICATION_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

const OUTSIDE_PREFIX = ['health/live', 'health/ready', 'metrics'].map((path) => ({ path, method: RequestMethod.GET }));

/**
 * Configures a Nest application the same way for the server, the end-to-end tests and the
 * OpenAPI export, in request order: the answer to requests Node cannot parse, Express settings,
 * security headers, request ids, the request log and metrics, CORS (only when configured), the
 * rate limiter, the allowed host names, the `/v1` prefix and the Swagger docs. Pipes, the filter and the guard are global
 * providers of `AppModule`.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
  app.useLogger(app.get(PinoLoggerService));
  app.disable('x-powered-by');
  answerUnparsableRequests(app.getHttpServer());
  app.set('trust proxy', config.trustProxy);
  app.use(helmet());
  app.use(requestIdMiddleware);
  app.use(app.get<RequestHandler>(HTTP_LOGGER));
  app.use(app.get(HttpMetrics).middleware);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: [
        'Link',
        'Location',
        'X-Request-Id',
        'Deprecation',
        'Sunset',
        ...Object.keys({ ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }),
      ],
    });
  }
  // The quota decision comes before routing, authentication and body parsing (docs/contract/decisions.md).
  const rateLimit = app.get(RateLimitMiddleware);
  app.use(`/${API_PREFIX}`, (request: Request, response: Response, next: NextFunction) => rateLimit.use(request, response, next));
  // After the quota decision, so a refused host name still gets the quota headers.
  app.use(`/${API_PREFIX}`, allowedHostMiddleware(config.allowedHosts));
  app.setGlobalPrefix(API_PREFIX, { exclude: OUTSIDE_PREFIX });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    swaggerOptions: { persistAuthorization: true },
  });
  return app;
}

/** The server's application: also reacts to SIGTERM/SIGINT with the graceful shutdown. */
export async function createApp(): Promise<NestExpressApplication> {
  validateServerEnvironment(process.env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule, NEST_APPLICATION_OPTIONS);
  app.enableShutdownHooks();
  return configureApp(app);
}
