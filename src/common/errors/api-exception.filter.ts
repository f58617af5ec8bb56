import { Catch, HttpException, HttpStatus, Logger, NotFoundException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { allowedMethodsFor } from '../http/express-routes.js';
import { contextOf } from '../context/request-context.js';
import { recordErrorCode } from '../http/request-span.js';
import {
  ApiException,
  InternalErrorException,
  MethodNotAllowedException,
  PayloadTooLargeException,
  RouteNotFoundException,
  ServiceUnavailableException,
  UnsupportedMediaTypeException,
  ValidationFailedException,
} from './api.exception.js';
import { isDatabaseUnavailable } from './database-unavailable.js';

/** The one place errors become responses, as the Error object; detail of a 5xx goes to the log with the request id, never out. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const path = request.originalUrl.split('?')[0];
    const allowedMethods = () => allowedMethodsFor(request.app, path);
    const apiError = toApiException(error, { method: request.method, path, allowedMethods });
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

/** The framework and library errors a client caused; any other status is ours, a 500. */
const BY_STATUS = new Map<unknown, () => ApiException>([
  [HttpStatus.BAD_REQUEST, () => new ValidationFailedException([], 'The request could not be understood.')],
  [HttpStatus.PAYLOAD_TOO_LARGE, () => new PayloadTooLargeException('the configured limit')],
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE, () => new UnsupportedMediaTypeException()],
]);

function statusOf(error: unknown): unknown {
  if (error instanceof HttpException) return error.getStatus();
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  return typeof status === 'number' ? status : statusCode;
}

/** Domain errors keep their code, library ones go by status, the rest is a 500 (503 without the database) that reveals nothing. */
export function toApiException(error: unknown, request: { method: string; path: string; allowedMethods: () => string[] }): ApiException {
  if (error instanceof ApiException) return error;
  if (error instanceof NotFoundException) {
    // Nest's router answers unmatched paths with a plain NotFoundException.
    const allowed = request.allowedMethods();
    return allowed.length > 0
      ? new MethodNotAllowedException(request.method, request.path, allowed)
      : new RouteNotFoundException(request.method, request.path);
  }
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableException();
  return BY_STATUS.get(statusOf(error))?.() ?? new InternalErrorException();
}
