import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RouteNotFoundException } from '../errors/api.exception.js';

/**
 * The last handler of the Express stack: Nest answers unmatched paths only under the prefix, so
 * `/nowhere`, `//v1/pets` or `/docs/..%2f…` would get Express's HTML page instead of the Error object.
 */
@Injectable()
export class UnmatchedRequestHandler implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    this.adapterHost.httpAdapter.use((request: Request, response: Response) => {
      const error = new RouteNotFoundException(request.method, request.originalUrl.split('?')[0]);
      response.status(error.getStatus()).json(error.toBody());
    });
  }
}
