import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RouteNotFoundException } from '../errors/api.exception.js';

/** The answer to a path nothing serves; also what a listener answers for the paths of the other. */
export function answerRouteNotFound(request: Request, response: Response): void {
  const error = new RouteNotFoundException(request.method, request.originalUrl.split('?')[0]);
  response.status(error.getStatus()).json(error.toBody());
}

/**
 * The last handler of the Express stack: Nest answers unmatched paths only under the prefix, so
 * `/nowhere`, `//v1/pets` or `/docs/..%2f…` would get Express's HTML page instead of the Error object.
 */
@Injectable()
export class UnmatchedRequestHandler implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter.use(answerRouteNotFound);
  }
}
