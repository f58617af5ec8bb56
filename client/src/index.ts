export { PetsClient, type ClientOptions } from './pets-client.js';
export type { Pets, PetListQuery } from './resources/pets.js';
export type { Keys } from './resources/keys.js';
export type { WebhookEndpoints } from './resources/webhooks.js';
export type { CreateOptions, RequestOptions } from './request-options.js';
export type { DeprecationNotice } from './deprecation.js';
export type {
  ApiKey,
  CreatedApiKey,
  ErrorDetail,
  NewApiKey,
  NewPet,
  Pet,
  PetStatus,
  QuotaWindow,
  RateLimitStatus,
  RollApiKey,
  Scope,
  Usage,
  CreatedWebhookEndpoint,
  NewWebhookEndpoint,
  SecretRotation,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointChange,
  WebhookEventType,
  WebhookEventSent,
} from './contract.js';
export {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PetsClientError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  type ApiErrorFields,
  type RefusedBy,
} from './errors.js';
export { UNEXPECTED_RESPONSE } from './error-from-response.js';
