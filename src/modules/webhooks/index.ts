export { WebhooksModule } from './webhooks.module.js';
export { WebhookEndpointsService } from './webhook-endpoints.service.js';
