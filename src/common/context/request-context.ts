import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import type { EntityManager } from 'typeorm';
import { ClsModule, ClsServiceManager, ContextClsStoreMap, type ClsService, type ClsStore, type Terminal } from 'nestjs-cls';

/** Who is calling: the key that authenticated the request, the client it belongs to, and what the key may do. */
export interface Principal {
  keyId: number;
  clientId: number;
  /** Names from the scope catalogue, read with the key. */
  scopes: readonly string[];
}

/** `expired` only for a key that was real: its holder may learn why, a guesser learns nothing. */
export type Authentication = { kind: 'missing' } | { kind: 'invalid'; expired: boolean } | { kind: 'valid'; principal: Principal };

export interface QuotaWindow {
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window ends. */
  reset: number;
}

/** The caller's plan and both windows, read without counting. */
export interface QuotaReading {
  plan: string;
  minute: QuotaWindow;
  day: QuotaWindow;
}

/**
 * What a request carries from the pipeline's first step to its last, one typed store per request
 * (nestjs-cls): each field is written by one piece and read by those after it.
 */
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

/** Makes `ClsService<RequestContext>` injectable everywhere: the server's and the command-line tool's module lists import it. */
export const RequestContextModule = ClsModule.forRoot({ global: true });

const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

/** The current request's context, where injection cannot reach (a parameter decorator). */
export const requestContext = (): ClsService<RequestContext> => ClsServiceManager.getClsService<RequestContext>();

/**
 * First in a pipeline: opens the request's context, with its request id. nestjs-cls's own ClsMiddleware
 * would also await its plugins' hooks on every request; this service registers none.
 */
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
