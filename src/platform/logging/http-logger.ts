import { pinoHttp, startTime } from 'pino-http';
import type { Logger } from 'pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { contextOf, matchedRoute, traceFieldsOf } from '../../common/index.js';

/** Probes and scrapes would drown the request log. */
const QUIET = /^\/(health\/|metrics)/;

function levelOf(response: ServerResponse, error?: unknown): 'error' | 'info' {
  return error || response.statusCode >= 500 ? 'error' : 'info';
}

/** The route, the client and, while tracing is on, the request's trace (sampled or not). */
function whoAndWhere(request: IncomingMessage) {
  const express = request as Request;
  return { route: matchedRoute(express) ?? null, clientId: contextOf(express).principal?.clientId ?? null, ...traceFieldsOf(express) };
}

/**
 * One line per finished request, without headers, so no credential can leak. With `info` off, only a
 * request whose line will be written is handed to pino-http: building lines nobody sees cost CPU.
 */
export function createHttpLogger(logger: Logger): (request: Request, response: Response, next: NextFunction) => void {
  const httpLogger = pinoHttp({
    logger,
    genReqId: (request) => contextOf(request as Request).requestId ?? 'unknown',
    autoLogging: { ignore: (request) => QUIET.test((request as Request).originalUrl ?? request.url ?? '') },
    customLogLevel: (_request, response, error) => levelOf(response, error),
    // Added when the response finishes (customProps would also bind them, unset, at the start).
    customSuccessObject: (request, _response, value: object) => ({ ...value, ...whoAndWhere(request) }),
    customErrorObject: (request, _response, _error, value: object) => ({ ...value, ...whoAndWhere(request) }),
    customSuccessMessage: (request, response, responseTime) =>
      `${request.method} ${(request as Request).originalUrl} ${response.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (request, response) => `${request.method} ${(request as Request).originalUrl} ${response.statusCode} failed`,
    serializers: {
      req: ({ id, method, raw }: { id: string; method: string; raw: Request }) => ({ id, method, url: raw.originalUrl }),
      res: ({ statusCode }: { statusCode: number }) => ({ statusCode }),
    },
  });
  return (request, response, next) => {
    if (logger.isLevelEnabled('info')) return httpLogger(request, response, next);
    response[startTime] = Date.now();
    response.once('finish', () => {
      if (logger.isLevelEnabled(levelOf(response))) httpLogger(request, response);
    });
    next();
  };
}
