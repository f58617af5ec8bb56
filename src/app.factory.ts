import { RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';
import { API_PREFIX, configurePipeline } from './app.pipeline.js';
import { ExpressPrototypesAdapter } from './common/index.js';
import type { AppConfig } from './platform/config/index.js';
import { PinoLoggerService } from './platform/logging/index.js';
import { buildOpenApiDocument } from './platform/openapi/index.js';

/** Options every instance of the application is created with (bodies are parsed in the pipeline). */
export const NEST_APPLICATION_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

// Idle keep-alive connections outlive a load balancer's (cloud ones close after 60 s), so the balancer closes them:
// a replica that closed one could drop a request the balancer is sending over it at that moment.
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const OUTSIDE_PREFIX = ['health/live', 'health/ready', 'metrics'].map((path) => ({ path, method: RequestMethod.GET }));

/** Configures the server, the end-to-end tests and the OpenAPI export alike: Express, the pipeline, `/v1`, the Swagger UI. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
  app.useLogger(app.get(PinoLoggerService));
  app.disable('x-powered-by');
  // No ETag: nothing promises conditional GETs, and hashing every body costs CPU on each request.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.getHttpServer().keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  configurePipeline(app, config);
  app.setGlobalPrefix(API_PREFIX, { exclude: OUTSIDE_PREFIX });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, config), {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs-json',
    yamlDocumentUrl: 'docs-yaml',
    // Shows each operation's `x-required-scopes`.
    swaggerOptions: { persistAuthorization: true, showExtensions: true },
  });
  return app;
}

/** The server's application: also reacts to SIGTERM/SIGINT with the graceful shutdown. */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(),
    new ExpressPrototypesAdapter(),
    NEST_APPLICATION_OPTIONS,
  );
  app.enableShutdownHooks();
  return configureApp(app);
}
