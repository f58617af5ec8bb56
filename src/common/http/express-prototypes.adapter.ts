import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Nest's Express adapter, whose HTTP server creates requests and responses with Express's own
 * prototypes: Express's per-request `Object.setPrototypeOf` then changes nothing, and V8 keeps
 * the objects fast (expressjs/express#5998; docs/architecture.md). Nest's own server is kept for
 * what this does not handle (TLS, `return503OnClosing`, `forceCloseConnections`).
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
}

/**
 * A constructor that runs `base` on objects created with `prototype` (which inherits from `base`'s).
 * Node's `IncomingMessage(socket)` and `ServerResponse(req, options)` are plain functions, so they
 * run on `this` (`Reflect.construct` with this new target measured slower than Express's own swap).
 */
function withPrototype<T extends typeof IncomingMessage | typeof ServerResponse>(base: T, prototype: object): T {
  const initialise = base as unknown as (this: object, first: unknown, second: unknown) => void;
  function Created(this: object, first: unknown, second: unknown): void {
    initialise.call(this, first, second);
  }
  Created.prototype = prototype;
  return Created as unknown as T;
}
