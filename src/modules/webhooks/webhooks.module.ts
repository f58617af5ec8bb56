import { Module } from '@nestjs/common';
import { ModuleParts } from '../../common/index.js';
import { AuthModule } from '../auth/index.js';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { DeliveryWorker } from './delivery-worker.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEventsModule } from './webhook-events.module.js';
import { WebhookRetention } from './webhook-retention.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookWatch } from './webhook-watch.js';
import { EndpointLimitReachedException, EndpointNotFoundException } from './webhooks.exceptions.js';
import { WebhooksAdminController } from './webhooks-admin.controller.js';
import { WebhooksMetrics } from './webhooks.metrics.js';
import { WebhooksOpenApi } from './webhooks.openapi.js';

/**
 * Signed webhooks, delivered at least once (docs/contract/decisions.md, "Events and webhooks"): a module added with one line.
 * The serving part: the routes, for clients and operators, the delivery worker, and the events of the limiter and the clock.
 */
@ModuleParts({
  scopes: [{ name: 'webhooks:manage', description: 'Manage webhook endpoints and read their deliveries.' }],
  errors: [EndpointNotFoundException, EndpointLimitReachedException],
  adminControllers: [WebhooksAdminController],
})
@Module({
  imports: [WebhookEventsModule, AuthModule, RateLimitModule],
  controllers: [WebhookEndpointsController],
  providers: [WebhookSender, WebhooksMetrics, DeliveryWorker, WebhookRetention, WebhookWatch, WebhooksOpenApi],
  exports: [WebhookEventsModule],
})
export class WebhooksModule {}
