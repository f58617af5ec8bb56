import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { allowedMethodsFor } from '../http/express-routes.js';
import { contextOf } from '../context/request-context.js';
import { recordErrorCode } from '../http/request-span.js';
import { toApiException } from './to-api-exception.js';

/** The one place errors become responses, as the Error object; detail of a 5xx goes to the log with the request id, never out. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const path = request.originalUrl.split('?')[0];
    const apiError = toApiException(error, {
      method: request.method,
      path,
      allowedMethods: () => allowedMethodsFor(this.adapterHost.httpAdapter.getInstance(), path),
    });
    const status = apiError.getStatus();
    recordErrorCode(request, apiError.code);
    if (status >= 500) {
      this.logger.error(
        `${request.method} ${path} failed with ${apiError.code} (request ${contextOf(request).requestId})`,
        error instanceof Error ? error.stack : String(error),
      );
    }
    if (response.headersSent) response.destroy();
    else response.status(status).set(apiError.headers).json(apiError.toBody());
  }
}
