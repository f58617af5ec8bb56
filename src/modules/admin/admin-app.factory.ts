import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import {
  answerUnparsableRequests,
  ApiExceptionFilter,
  AppValidationPipe,
  ExpressPrototypesAdapter,
  jsonBodyParser,
  requestContextMiddleware,
  requestSpanMiddleware,
} from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { GracefulShutdown } from '../../platform/health/index.js';
import { HTTP_LOGGER, PinoLoggerService } from '../../platform/logging/index.js';
import { HttpMetrics } from '../../platform/metrics/index.js';
import type { TracingConfig } from '../../platform/tracing/index.js';
import { AdminAppModule } from './admin-app.module.js';
import { AdminAuthentication } from './admin-authentication.middleware.js';
import { ADMIN_API_PATH } from './location.js';
import { buildAdminOpenApiDocument } from './admin.openapi.js';

/** The admin API, an application of its own on the server's services; not listening yet, and shut down before them. */
export async function createAdminApp(services: INestApplication): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AdminAppModule.register(services), new ExpressPrototypesAdapter(), {
    bodyParser: false,
    logger: services.get(PinoLoggerService),
  });
  services.get(GracefulShutdown).closeWith(app);
  // No ETag, as on the public port: nothing promises conditional GETs.
  app.set('etag', false);
  // In request order. The admin token is checked by middleware, not a guard: an unauthenticated body is never read.
  const config = app.get(ConfigService);
  const router: Express = app.getHttpAdapter().getInstance();
  answerUnparsableRequests(app.getHttpServer());
  app.use(requestContextMiddleware);
  if (config.getOrThrow<TracingConfig>('tracing').enabled) app.use(requestSpanMiddleware(router));
  app.use(helmet());
  app.use(app.get<RequestHandler>(HTTP_LOGGER));
  app.use(app.get(HttpMetrics).middleware('admin'));
  const authentication = app.get(AdminAuthentication);
  app.use(ADMIN_API_PATH, (request: Request, response: Response, next: NextFunction) => authentication.use(request, response, next));
  app.use(ADMIN_API_PATH, jsonBodyParser(config.getOrThrow<AppConfig>('app').bodyLimit, router));
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter(app.get(HttpAdapterHost)));
  SwaggerModule.setup('admin/docs', app, () => buildAdminOpenApiDocument(app), {
    jsonDocumentUrl: 'admin/docs-json',
    yamlDocumentUrl: 'admin/docs-yaml',
    swaggerOptions: { persistAuthorization: true },
  });
  return app;
}
