import { randomUUID } from 'node:crypto';
import { createParamDecorator, Global, Module } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { ClsService, ClsServiceManager, ContextClsStoreMap, type ClsStore, type Terminal } from 'nestjs-cls';

/** Who is calling: the key that authenticated the request, the client it belongs to, and what the key may do. */
export type Principal = { keyId: number; clientId: number; scopes: readonly string[] };

/** `expired` only for a key that was real: its holder may learn why, a guesser learns nothing. */
export type Authentication = { kind: 'missing' } | { kind: 'invalid'; expired: boolean } | { kind: 'valid'; principal: Principal };

/** `reset`: Unix time in seconds at which the window ends. */
export type QuotaWindow = { limit: number; remaining: number; reset: number };

/** The caller's plan and both windows, read without counting. */
export type QuotaReading = { plan: string; minute: QuotaWindow; day: QuotaWindow };

/** What a request carries through the pipeline, one typed store per request (nestjs-cls): each field has one writer. */
export interface RequestContext extends ClsStore {
  /** The caller's sane `X-Request-Id`, else a new one; every response echoes it. */
  requestId: string;
  /** The request's server span, while tracing is on. */
  span?: Terminal<Span>;
  /** Who sent the request, decided once: the rate limiter asks first, the API key guard after. */
  authentication?: Promise<Authentication>;
  /** Set by the API key guard once the key passed. */
  principal?: Principal;
  /** Set by the admin API's guard once the admin token passed. */
  adminTokenId?: number;
  /** The limiter's reading for an `@UncountedRead()` route, for its handler. */
  quota?: QuotaReading;
  /** The transaction the request's writes join (`TransactionHost.withTransaction`). */
  transaction?: Terminal<EntityManager>;
  /** The read cache's data generations by tag, read by the limiter in its Redis round trip (undefined: unknown). */
  dataGenerations?: Record<string, number>;
}

/**
 * Makes `ClsService<RequestContext>` injectable everywhere: the server's and the command-line tool's module lists import it.
 * nestjs-cls's own `ClsModule.forRoot()` would also put a no-op guard and interceptor on every route (docs/benchmarks.md).
 */
@Global()
@Module({ providers: [{ provide: ClsService, useValue: ClsServiceManager.getClsService() }], exports: [ClsService] })
export class RequestContextModule {}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

/** The current request's context, where injection cannot reach (a parameter decorator). */
export const requestContext = (): ClsService<RequestContext> => ClsServiceManager.getClsService<RequestContext>();

/** First in a pipeline: opens the request's context. nestjs-cls's ClsMiddleware would await plugin hooks on every request. */
export function requestContextMiddleware(request: Request, response: Response, next: NextFunction): void {
  const cls = requestContext();
  cls.run(() => {
    ContextClsStoreMap.setByRaw(request, cls.get());
    const offered = request.get('x-request-id');
    const requestId = offered && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    cls.set('requestId', requestId);
    response.setHeader('X-Request-Id', requestId);
    next();
  });
}

/** A request's context from outside its async flow: what runs on its response's events (the request log, metrics, the span's end). */
export const contextOf = (request: Request): Partial<RequestContext> =>
  (ContextClsStoreMap.getByRaw(request) as RequestContext | undefined) ?? {};

/** The key and client calling: every route here is behind the API key guard, which sets it. */
export const Caller = createParamDecorator((): Principal => {
  const principal = requestContext().get('principal');
  if (!principal) throw new Error('Caller is read only on routes the API key guard has authenticated');
  return principal;
});

/** The request's `X-Request-Id`, for a handler to pass on explicitly (into an audit event, say). */
export const RequestId = createParamDecorator((): string => requestContext().get('requestId'));
