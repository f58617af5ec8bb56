import { HttpException, HttpStatus, NotFoundException } from '@nestjs/common';
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

export interface FailedRequest {
  method: string;
  path: string;
  allowedMethods: () => string[];
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 600 ? value : undefined;
}

/** Domain errors keep their code, library ones go by status, the rest is a 500 (503 without the database) that reveals nothing. */
export function toApiException(error: unknown, request: FailedRequest): ApiException {
  if (error instanceof ApiException) return error;
  if (error instanceof NotFoundException) {
    // Nest's router answers unmatched paths with a plain NotFoundException.
    const allowed = request.allowedMethods();
    return allowed.length > 0
      ? new MethodNotAllowedException(request.method, request.path, allowed)
      : new RouteNotFoundException(request.method, request.path);
  }
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableException();
  switch (statusOf(error)) {
    case HttpStatus.BAD_REQUEST:
      return new ValidationFailedException([], 'The request could not be understood.');
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return new PayloadTooLargeException('the configured limit');
    case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
      return new UnsupportedMediaTypeException();
    default:
      return new InternalErrorException();
  }
}
