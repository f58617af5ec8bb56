import { RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { AppModule, type AppModuleImport } from './app.module.js';
import { allowedHostMiddleware, answerUnparsableRequests, ExpressPrototypesAdapter, requestIdMiddleware } from './common/index.js';
import { type AppConfig, validateServerEnvironment } from './platform/config/index.js';
import { IDEMPOTENCY_KEY_HEADER } from './policies/idempotency/index.js';
import { HTTP_LOGGER, PinoLoggerService } from './platform/logging/index.js';
import { HttpMetrics } from './platform/metrics/index.js';
import { buildOpenApiDocument } from './platform/openapi/index.js';
import { RATE_LIMIT_HEADER_NAMES, RateLimitMiddleware } from './policies/rate-limit/index.js';

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
  // No ETag: nothing promises conditional GETs, and hashing every body cost 4.6 µs a request (docs/api.md, "Caching").
  app.set('etag', false);
  answerUnparsableRequests(app.getHttpServer());
  app.set('trust proxy', config.trustProxy);
  app.use(helmet());
  app.use(requestIdMiddleware);
  app.use(app.get<RequestHandler>(HTTP_LOGGER));
  app.use(app.get(HttpMetrics).middleware);
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type', IDEMPOTENCY_KEY_HEADER, 'X-Request-Id'],
      exposedHeaders: ['Link', 'Location', 'X-Request-Id', 'Deprecation', 'Sunset', ...RATE_LIMIT_HEADER_NAMES],
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

/**
 * How long the server keeps an idle keep-alive connection open (Node's default is 5 s): longer than
 * a load balancer in front keeps an idle connection to a replica (HAProxy of docker/haproxy.cfg
 * purges its unused ones within seconds; cloud balancers and ingresses commonly after 60 s), so the
 * balancer closes idle connections, never the replica. When the replica closes one, the balancer
 * may be sending a request over it at that moment, and on a busy machine the replica's event loop
 * runs its expired keep-alive timers before it reads a request that has already arrived: the request
 * is dropped unanswered, and HAProxy drops its client's connection unanswered too ("socket hang up").
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The server's application (with `extra` modules): also reacts to SIGTERM/SIGINT with the graceful shutdown. */
export async function createApp(extra: AppModuleImport[] = []): Promise<NestExpressApplication> {
  validateServerEnvironment(process.env);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(extra),
    new ExpressPrototypesAdapter(),
    NEST_APPLICATION_OPTIONS,
  );
  app.enableShutdownHooks();
  app.getHttpServer().keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return configureApp(app);
}
