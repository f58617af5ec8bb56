import { TagContribution } from '../../platform/openapi/index.js';

export const WEBHOOKS_TAG = 'webhooks';

const SCHEMAS = [
  'WebhookEndpoint',
  'CreatedWebhookEndpoint',
  'NewWebhookEndpoint',
  'WebhookEndpointChange',
  'SecretRotation',
  'WebhookEventSent',
  'WebhookAttempt',
];
export const WebhooksOpenApi = TagContribution(
  WEBHOOKS_TAG,
  'Signed events POSTed to the endpoints a client subscribes (Standard Webhooks)',
  SCHEMAS,
);
