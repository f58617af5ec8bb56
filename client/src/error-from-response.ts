import type { ErrorDetail } from './contract.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './errors.js';
import { refusal, retryAfterSeconds } from './quota-headers.js';

/** The code of an answer that is not the API's Error object (a proxy's page, a truncated body). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';
const QUOTED_BODY_CHARACTERS = 200;

const BY_STATUS: Partial<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  422: UnprocessableEntityError,
};

interface ErrorObject {
  code: string;
  message: string;
  details?: ErrorDetail[];
}

function isErrorObject(body: unknown): body is ErrorObject {
  const candidate = body as Partial<ErrorObject> | null;
  return typeof candidate?.code === 'string' && typeof candidate.message === 'string';
}

function errorObject(status: number, text: string): ErrorObject {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isErrorObject(body))
    return { code: body.code, message: body.message, details: Array.isArray(body.details) ? body.details : undefined };
  const quoted = text.length > QUOTED_BODY_CHARACTERS ? `${text.slice(0, QUOTED_BODY_CHARACTERS)}…` : text;
  return { code: UNEXPECTED_RESPONSE, message: `HTTP ${status} without the API's Error object: ${JSON.stringify(quoted)}` };
}

/**
 * The typed error of an answer the caller cannot use: its class by status (unknown ones: ApiError,
 * or InternalServerError from 500 on), its fields from the Error object and the headers. A 429 is a
 * RateLimitError when it says how long to wait, as the service's always do.
 */
export function errorFromResponse(status: number, headers: Headers, text: string): ApiError {
  const fields = { status, ...errorObject(status, text), requestId: headers.get('x-request-id') ?? undefined };
  const retryAfter = retryAfterSeconds(headers);
  if (status === 429 && retryAfter !== undefined) {
    const { window, resetAt } = refusal(fields.code, headers, retryAfter);
    return new RateLimitError({ ...fields, retryAfterSeconds: retryAfter }, window, resetAt);
  }
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : ApiError);
  return new ErrorClass({ ...fields, retryAfterSeconds: retryAfter });
}
