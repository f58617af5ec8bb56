export { LookupCache } from './cache/lookup-cache.js';
export * from './context/request-context.js';
export { HourlyPurge } from './scheduling/hourly-purge.js';
export { AppParts, AppPartsModule, gatherParts, ModuleParts, type ScopeDefinition } from './module-parts.js';
export { Clock, ClockModule } from './clock/clock.js';
export { ApiErrorResponses } from './errors/api-error-responses.decorator.js';
export { ApiExceptionFilter } from './errors/api-exception.filter.js';
export { ApiError, errorCodesOf, type ApiErrorDefinition } from './errors/api-error.decorator.js';
export {
  ApiException,
  INVALID_REQUEST_ERRORS,
  KERNEL_ERRORS,
  PayloadTooLargeException,
  SERVICE_ERRORS,
  UnsupportedMediaTypeException,
  ValidationFailedException,
} from './errors/api.exception.js';
export { describeErrorCodes } from './errors/error.dto.js';
export { allowedHostMiddleware } from './http/allowed-host.middleware.js';
export { allowedMethodsFor } from './http/express-routes.js';
export { ExpressPrototypesAdapter } from './http/express-prototypes.adapter.js';
export { jsonBodyParser } from './http/json-body.middleware.js';
export { matchedRoute, requestSpanMiddleware, sampledTraceId, traceFields, traceFieldsOf } from './http/request-span.js';
export { IS_PUBLIC, Public } from './http/public.decorator.js';
export { apiBaseUrl } from './http/public-url.js';
export { UnmatchedRequestHandler } from './http/unmatched-request.handler.js';
export { answerUnparsableRequests } from './http/unparsable-request.handler.js';
export * from './pagination/keyset-page.js';
export { encodeCursor } from './pagination/cursor.js';
export { PageLimit, PageQueryDto } from './pagination/page-query.dto.js';
export { AppValidationPipe, OmittableProperty, ToInteger } from './validation/app-validation.pipe.js';
