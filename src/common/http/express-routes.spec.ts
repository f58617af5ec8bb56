import { METHODS } from 'node:http';
import express, { type RequestHandler } from 'express';
import { allowedMethodsFor, routePatternFor } from './express-routes.js';

const handler: RequestHandler = (_request, response) => void response.end();

/** Routes as Nest registers them on Express: one per method and pattern, a middleware, and a catch-all taking every method. */
function router() {
  const app = express();
  app.use('/v1', (_request, _response, next) => next());
  app.get('/v1/pets', handler);
  app.post('/v1/pets', handler);
  app.get('/v1/pets/:id', handler);
  app.delete('/v1/pets/:id', handler);
  app.put('/v1/pets/:id/photo', handler);
  app.all('/v1/any', handler);
  const catchAll = app.route('/{*path}') as unknown as Record<string, (handler: RequestHandler) => void>;
  for (const method of METHODS) catchAll[method.toLowerCase()]?.(handler);
  return app;
}

describe('allowedMethodsFor', () => {
  const app = router();

  it('lists the methods the routes of a path serve, HEAD with GET, sorted', () => {
    expect(allowedMethodsFor(app, '/v1/pets')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethodsFor(app, '/v1/pets/12')).toEqual(['DELETE', 'GET', 'HEAD']);
    expect(allowedMethodsFor(app, '/v1/pets/12/photo')).toEqual(['PUT']);
  });

  it('counts neither the catch-all nor a route taking any method as serving a method', () => {
    expect(allowedMethodsFor(app, '/elsewhere')).toEqual([]);
    expect(allowedMethodsFor(app, '/v1/any')).toEqual([]);
  });

  it('finds nothing on an application without routes', () => {
    expect(allowedMethodsFor(express(), '/v1/pets')).toEqual([]);
  });
});

describe('routePatternFor', () => {
  const app = router();

  it('gives the pattern of the route that serves the method on the path, never the path itself', () => {
    expect(routePatternFor(app, 'GET', '/v1/pets')).toBe('/v1/pets');
    expect(routePatternFor(app, 'POST', '/v1/pets')).toBe('/v1/pets');
    expect(routePatternFor(app, 'GET', '/v1/pets/12')).toBe('/v1/pets/:id');
    expect(routePatternFor(app, 'DELETE', '/v1/pets/12')).toBe('/v1/pets/:id');
    expect(routePatternFor(app, 'PUT', '/v1/pets/12/photo')).toBe('/v1/pets/:id/photo');
  });

  it('serves HEAD by the GET route', () => {
    expect(routePatternFor(app, 'HEAD', '/v1/pets/12')).toBe('/v1/pets/:id');
  });

  it('gives nothing for a method the path does not serve, a path no route serves, or the catch-all', () => {
    expect(routePatternFor(app, 'PATCH', '/v1/pets/12')).toBeUndefined();
    expect(routePatternFor(app, 'HEAD', '/v1/pets/12/photo')).toBeUndefined();
    expect(routePatternFor(app, 'GET', '/v1/kennels')).toBeUndefined();
    expect(routePatternFor(app, 'GET', '/elsewhere')).toBeUndefined();
    expect(routePatternFor(express(), 'GET', '/v1/pets')).toBeUndefined();
  });
});
