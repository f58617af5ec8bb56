import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ModuleParts } from '../../common/index.js';
import { AuditModule } from '../audit/index.js';
import { AuthModule } from '../auth/index.js';
import { RateLimitModule } from '../../policies/rate-limit/index.js';
import { DeliveryWorker } from './delivery-worker.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { Webhooks1798243200000 } from './migrations/1798243200000-webhooks.js';
import { OutboxRepository } from './outbox.repository.js';
import { HostResolver, SystemResolver } from './target-address.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookRetention } from './webhook-retention.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookTriggers } from './webhook-triggers.js';
import { webhooksConfig } from './webhooks.config.js';
import { EndpointLimitReachedException, EndpointNotFoundException } from './webhooks.exceptions.js';
import { WebhooksMetrics } from './webhooks.metrics.js';
import { WebhooksOpenApi } from './webhooks.openapi.js';

/** Signed webhooks, delivered at least once (docs/contract/decisions.md, "Events and webhooks"): a module added with one line. */
@ModuleParts({
  config: [webhooksConfig],
  migrations: [Webhooks1798243200000],
  scopes: [{ name: 'webhooks:manage', description: 'Manage webhook endpoints and read their deliveries.' }],
  auditActions: ['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.deleted', 'webhook_endpoint.secret_rotated'],
  errors: [EndpointNotFoundException, EndpointLimitReachedException],
})
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookAttempt]), AuditModule, AuthModule, RateLimitModule],
  controllers: [WebhookEndpointsController],
  providers: [
    { provide: HostResolver, useClass: SystemResolver },
    OutboxRepository,
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookTriggers,
    WebhookSender,
    WebhooksMetrics,
    DeliveryWorker,
    WebhookRetention,
    WebhooksOpenApi,
  ],
  exports: [WebhookEndpointsService],
})
export class WebhooksModule {}
