// The API's shapes, as openapi-typescript generates them from the service's openapi.json at build
// time (src/generated/schema.ts, not in git): a change of the contract changes these types.
import type { components, operations } from './generated/schema.js';

type Schemas = components['schemas'];

export type Pet = Schemas['Pet'];
export type NewPet = Schemas['NewPet'];
export type PetStatus = Schemas['PetStatus'];
export type ApiKey = Schemas['ApiKey'];
export type NewApiKey = Schemas['NewApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type RollApiKey = Schemas['RollApiKey'];
export type Scope = Schemas['Scope'];
export type RateLimitStatus = Schemas['RateLimitStatus'];
export type QuotaWindow = Schemas['QuotaWindow'];
export type Usage = Schemas['Usage'];
export type ErrorDetail = Schemas['ErrorDetail'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint'];
export type NewWebhookEndpoint = Schemas['NewWebhookEndpoint'];
export type WebhookEndpointChange = Schemas['WebhookEndpointChange'];
export type SecretRotation = Schemas['SecretRotation'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookEventSent = Schemas['WebhookEventSent'];

/** The query parameters of an operation. */
export type Query<Operation extends keyof operations> = NonNullable<operations[Operation]['parameters']['query']>;
