import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Nest's Express adapter, with an HTTP server whose requests and responses are created with
 * Express's own prototypes (`app.request`, `app.response`) instead of Node's.
 *
 * Express gives every request and response its prototypes with `Object.setPrototypeOf` when it
 * takes them. Changing an object's prototype throws away what V8 learnt about its shape, and the
 * code of Node's HTTP server that touches the object afterwards runs slower. Created this way, the
 * objects already have the prototypes Express sets, and V8 skips a `setPrototypeOf` that changes
 * nothing; Express still swaps them for a mounted sub-application, as before. What that saves is
 * in docs/benchmarks.md, "Findings" (and expressjs/express#5998).
 *
 * Nest's own server is kept for options this adapter does not handle (TLS, `return503OnClosing`,
 * `forceCloseConnections`); the service uses none of them.
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
