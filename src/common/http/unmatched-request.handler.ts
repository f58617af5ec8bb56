import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RouteNotFoundException } from '../errors/api.exception.js';

/** Last in the Express stack: Nest answers unmatched paths only under the prefix; `/nowhere` would get Express's HTML page. */
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
