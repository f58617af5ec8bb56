import { HttpException, HttpStatus } from '@nestjs/common';
import { maxHeaderSize } from 'node:http';
import { ApiError, apiErrorOf } from './api-error.decorator.js';
import type { ErrorDetailDto, ErrorDto } from './error.dto.js';

/** RFC 6585; Nest's HttpStatus enum does not name it. */
const REQUEST_HEADER_FIELDS_TOO_LARGE = 431 as HttpStatus;

/** An error with a stable code: each module subclasses it and declares status, code and documentation with `@ApiError`. */
export abstract class ApiException extends HttpException {
  readonly code: string;
  readonly details?: ErrorDetailDto[];
  /** Headers the response carries, such as `Allow` on a 405. */
  readonly headers: Record<string, string>;

  constructor(message: string, { details, headers = {} }: { details?: ErrorDetailDto[]; headers?: Record<string, string> } = {}) {
    const { status, code } = apiErrorOf(new.target);
    super(message, status);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  toBody(): ErrorDto {
    const body: ErrorDto = { code: this.code, message: this.message, status: this.getStatus() };
    return this.details?.length ? { ...body, details: this.details } : body;
  }
}

const INVALID_VALUE = 'Invalid body, query or path value';

@ApiError({ status: HttpStatus.BAD_REQUEST, code: 'validation_failed', description: INVALID_VALUE })
export class ValidationFailedException extends ApiException {
  constructor(details: ErrorDetailDto[], message = 'The request has invalid values.') {
    super(message, { details });
  }

  static forField(field: string, message: string): ValidationFailedException {
    return new ValidationFailedException([{ field, message }]);
  }
}

@ApiError({ status: HttpStatus.BAD_REQUEST, code: 'malformed_json', description: INVALID_VALUE })
export class MalformedJsonException extends ApiException {
  constructor(message = 'The body is not valid JSON.') {
    super(message);
  }
}

@ApiError({ status: HttpStatus.PAYLOAD_TOO_LARGE, code: 'payload_too_large', description: 'Body over the size limit' })
export class PayloadTooLargeException extends ApiException {
  constructor(limit: string) {
    super(`The body is larger than ${limit}.`);
  }
}

@ApiError({ status: REQUEST_HEADER_FIELDS_TOO_LARGE, code: 'headers_too_large', description: 'Request line and headers over 16 KiB' })
export class HeadersTooLargeException extends ApiException {
  constructor() {
    super(`The request line and headers together are larger than the ${maxHeaderSize / 1024} KiB the server accepts.`);
  }
}

@ApiError({ status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, code: 'unsupported_media_type', description: 'Body is not application/json' })
export class UnsupportedMediaTypeException extends ApiException {
  constructor() {
    super('The body must be sent as Content-Type: application/json (UTF-8).');
  }
}

@ApiError({ status: HttpStatus.NOT_FOUND, code: 'not_found', description: 'The requested resource could not be found' })
export class RouteNotFoundException extends ApiException {
  constructor(method: string, path: string) {
    super(`No route ${method} ${path}.`);
  }
}

@ApiError({ status: HttpStatus.METHOD_NOT_ALLOWED, code: 'method_not_allowed', description: 'The method is not allowed on this path' })
export class MethodNotAllowedException extends ApiException {
  constructor(method: string, path: string, allowed: string[]) {
    super(`${method} is not allowed on ${path}.`, { headers: { Allow: allowed.join(', ') } });
  }
}

@ApiError({ status: HttpStatus.SERVICE_UNAVAILABLE, code: 'service_unavailable', description: 'The database cannot be reached' })
export class ServiceUnavailableException extends ApiException {
  constructor() {
    super('The service cannot reach its database; retry shortly.');
  }
}

@ApiError({ status: HttpStatus.INTERNAL_SERVER_ERROR, code: 'internal_error', description: 'Unexpected failure' })
export class InternalErrorException extends ApiException {
  constructor() {
    super('An unexpected error occurred.');
  }
}

/** Errors any operation may answer with. */
export const INVALID_REQUEST_ERRORS = [ValidationFailedException, MalformedJsonException];
export const SERVICE_ERRORS = [InternalErrorException, ServiceUnavailableException];
/** The pipeline's own, answered by every application: their codes are in every document's catalogue. */
export const KERNEL_ERRORS = [
  ...INVALID_REQUEST_ERRORS,
  PayloadTooLargeException,
  HeadersTooLargeException,
  UnsupportedMediaTypeException,
  RouteNotFoundException,
  MethodNotAllowedException,
  ...SERVICE_ERRORS,
];
