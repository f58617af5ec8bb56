import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { ApiExceptionFilter, AppValidationPipe, ExpressPrototypesAdapter, jsonBodyParser } from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { GracefulShutdown } from '../../platform/health/index.js';
import { observeRequests } from '../../platform/http/index.js';
import { PinoLoggerService } from '../../platform/logging/index.js';
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
  observeRequests(app, 'admin');
  const authentication = app.get(AdminAuthentication);
  app.use(ADMIN_API_PATH, (request: Request, response: Response, next: NextFunction) => authentication.use(request, response, next));
  app.use(ADMIN_API_PATH, jsonBodyParser(app.get(ConfigService).getOrThrow<AppConfig>('app').bodyLimit));
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  SwaggerModule.setup('admin/docs', app, () => buildAdminOpenApiDocument(app), {
    jsonDocumentUrl: 'admin/docs-json',
    yamlDocumentUrl: 'admin/docs-yaml',
    swaggerOptions: { persistAuthorization: true },
  });
  return app;
}
