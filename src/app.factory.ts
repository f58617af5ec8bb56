import { RequestMethod } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule, type AppModuleImport } from './app.module.js';
import { API_PREFIX, configurePipeline } from './app.pipeline.js';
import { ExpressPrototypesAdapter } from './common/index.js';
import type { AppConfig } from './platform/config/index.js';
import { PinoLoggerService } from './platform/logging/index.js';
import { buildOpenApiDocument } from './platform/openapi/index.js';

/** Options every instance of the application is created with (bodies are parsed in the pipeline). */
export const NEST_APPLICATION_OPTIONS = { bodyParser: false, bufferLogs: true } as const;

const OUTSIDE_PREFIX = ['health/live', 'health/ready', 'metrics'].map((path) => ({ path, method: RequestMethod.GET }));

/**
 * Configures a Nest application the same way for the server, the end-to-end tests and the
 * OpenAPI export: Express settings, the request pipeline (app.pipeline.ts), the `/v1` prefix and
 * the Swagger docs.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(ConfigService).getOrThrow<AppConfig>('app');
  app.useLogger(app.get(PinoLoggerService));
  app.disable('x-powered-by');
  // No ETag: nothing promises conditional GETs, and hashing every body costs CPU on each request.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  configurePipeline(app, config);
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
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(extra),
    new ExpressPrototypesAdapter(),
    NEST_APPLICATION_OPTIONS,
  );
  app.enableShutdownHooks();
  app.getHttpServer().keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return configureApp(app);
}
