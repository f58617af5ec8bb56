import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { RouteNotFoundException } from '../errors/api.exception.js';

/**
 * Node creates requests and responses with Express's prototypes, so Express's per-request `Object.setPrototypeOf` changes
 * nothing and V8 keeps them fast (expressjs/express#5998). Nest's own server is kept for TLS and its closing options.
 */
export class ExpressPrototypesAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.return503OnClosing || options.forceCloseConnections) {
      return super.initHttpServer(options);
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      { IncomingMessage: withPrototype(IncomingMessage, app.request), ServerResponse: withPrototype(ServerResponse, app.response) },
      app,
    );
  }

  /** Nest answers unmatched paths only under the global prefix: `/nowhere` would get Express's HTML page, not the Error object. */
  override setNotFoundHandler(...args: Parameters<ExpressAdapter['setNotFoundHandler']>): void {
    super.setNotFoundHandler(...args);
    this.use((request: Request, _response: Response, next: NextFunction) =>
      next(new RouteNotFoundException(request.method, request.originalUrl.split('?')[0])),
    );
  }
}

/** Runs `base` (a plain function in Node) on objects made with `prototype`; `Reflect.construct` was slower than Express's swap. */
function withPrototype<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  const initialise = base as unknown as (this: object, first: unknown, second: unknown) => void;
  function Created(this: object, first: unknown, second: unknown): void {
    initialise.call(this, first, second);
  }
  Created.prototype = prototype;
  return Created as unknown as T;
}
