import { HttpException, HttpStatus } from '@nestjs/common';
import { maxHeaderSize } from 'node:http';

/** RFC 6585; Nest's HttpStatus enum does not name it. */
const REQUEST_HEADER_FIELDS_TOO_LARGE = 431 as HttpStatus;
import { ErrorCode } from './error-code.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The body every error response carries. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: ErrorDetail[];
}

/**
 * An error with a stable code from the catalogue. Feature modules subclass it for their
 * domain errors; the global filter turns it into the Error object as it is.
 */
export class ApiException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    status: HttpStatus,
    message: string,
    readonly details?: ErrorDetail[],
    /** Headers the response must carry, such as `Allow` on a 405. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.getStatus() };
    return this.details?.length ? { ...body, details: this.details } : body;
  }
}

export class ValidationFailedException extends ApiException {
  constructor(details: ErrorDetail[], message = 'The request has invalid values.') {
    super(ErrorCode.ValidationFailed, HttpStatus.BAD_REQUEST, message, details);
  }

  static forField(field: string, message: string): ValidationFailedException {
    return new ValidationFailedException([{ field, message }]);
  }
}

export class MalformedJsonException extends ApiException {
  constructor(message = 'The body is not valid JSON.') {
    super(ErrorCode.MalformedJson, HttpStatus.BAD_REQUEST, message);
  }
}

export class PayloadTooLargeException extends ApiException {
  constructor(limit: string) {
    super(ErrorCode.PayloadTooLarge, HttpStatus.PAYLOAD_TOO_LARGE, `The body is larger than ${limit}.`);
  }
}

export class HeadersTooLargeException extends ApiException {
  constructor() {
    super(
      ErrorCode.HeadersTooLarge,
      REQUEST_HEADER_FIELDS_TOO_LARGE,
      `The request line and headers together are larger than the ${maxHeaderSize / 1024} KiB the server accepts.`,
    );
  }
}

export class UnsupportedMediaTypeException extends ApiException {
  constructor() {
    super(
      ErrorCode.UnsupportedMediaType,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      'The body must be sent as Content-Type: application/json (UTF-8).',
    );
  }
}

export class RouteNotFoundException extends ApiException {
  constructor(method: string, path: string) {
    super(ErrorCode.NotFound, HttpStatus.NOT_FOUND, `No route ${method} ${path}.`);
  }
}

export class MethodNotAllowedException extends ApiException {
  constructor(method: string, path: string, allowed: string[]) {
    super(ErrorCode.MethodNotAllowed, HttpStatus.METHOD_NOT_ALLOWED, `${method} is not allowed on ${path}.`, undefined, {
      Allow: allowed.join(', '),
    });
  }
}

export class ServiceUnavailableException extends ApiException {
  constructor() {
    super(ErrorCode.ServiceUnavailable, HttpStatus.SERVICE_UNAVAILABLE, 'The service cannot reach its database; retry shortly.');
  }
}

export class InternalErrorException extends ApiException {
  constructor() {
    super(ErrorCode.InternalError, HttpStatus.INTERNAL_SERVER_ERROR, 'An unexpected error occurred.');
  }
}
