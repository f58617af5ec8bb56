import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import type { Express } from 'express';
import request from 'supertest';
import { ExpressPrototypesAdapter } from './express-prototypes.adapter.js';

/** An adapter's server with one Express route, and the prototypes its requests and responses were created with. */
function serve(options: NestApplicationOptions = {}) {
  const adapter = new ExpressPrototypesAdapter();
  adapter.initHttpServer(options);
  const app = adapter.getInstance<Express>();
  app.get('/pets', (req, res) => {
    res.status(200).json({ path: req.path, host: req.hostname });
  });
  const server = adapter.getHttpServer() as Server;
  const created: Array<{ request: object; response: object; isNodeRequest: boolean; isNodeResponse: boolean }> = [];
  // Before Express's own listener: what Node's server created, before Express touches it.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    created.push({
      request: Object.getPrototypeOf(req) as object,
      response: Object.getPrototypeOf(res) as object,
      isNodeRequest: req instanceof IncomingMessage,
      isNodeResponse: res instanceof ServerResponse,
    });
  });
  return { app, server, created };
}

describe('ExpressPrototypesAdapter', () => {
  it("creates every request and response with Express's prototypes, so Express has none to change", async () => {
    const { app, server, created } = serve();
    await request(server).get('/pets').expect(200, { path: '/pets', host: '127.0.0.1' });
    await request(server).get('/pets').set('Host', 'example.com').expect(200, { path: '/pets', host: 'example.com' });
    expect(created).toHaveLength(2);
    for (const objects of created) {
      expect(objects).toEqual({ request: app.request, response: app.response, isNodeRequest: true, isNodeResponse: true });
    }
  });

  it("keeps Nest's own server for the options it does not handle", async () => {
    const { server, created } = serve({ forceCloseConnections: true });
    await request(server).get('/pets').expect(200, { path: '/pets', host: '127.0.0.1' });
    expect(created).toEqual([
      { request: IncomingMessage.prototype, response: ServerResponse.prototype, isNodeRequest: true, isNodeResponse: true },
    ]);
  });
});
