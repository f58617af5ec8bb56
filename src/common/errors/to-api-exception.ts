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
  return BY_STATUS.get(statusOf(error))?.() ?? new InternalErrorException();
}
