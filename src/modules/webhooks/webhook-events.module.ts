import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ModuleParts } from '../../common/index.js';
import { AuditModule } from '../audit/index.js';
import { PlansModule } from '../plans/index.js';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { Webhooks1798243200000 } from './migrations/1798243200000-webhooks.js';
import { WebhookNewPets1798329600000 } from './migrations/1798329600000-webhook-new-pets.js';
import { WebhookPetFeed1798416000000 } from './migrations/1798416000000-webhook-pet-feed.js';
import { OutboxRepository } from './outbox.repository.js';
import { HostResolver, SystemResolver } from './target-address.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookTriggers } from './webhook-triggers.js';
import { webhooksConfig } from './webhooks.config.js';
import { WEBHOOKS_COMMANDS } from './webhooks.commands.js';

/**
 * The webhooks' part without HTTP: the endpoints, the outbox, and the listeners that write the other modules' changes
 * into it in their transactions. The command-line tool opens it for its commands, so a key it creates is announced too.
 */
@ModuleParts({
  config: [webhooksConfig],
  migrations: [Webhooks1798243200000, WebhookNewPets1798329600000, WebhookPetFeed1798416000000],
  auditActions: [
    'webhook_endpoint.created',
    'webhook_endpoint.updated',
    'webhook_endpoint.deleted',
    'webhook_endpoint.secret_rotated',
    'webhook_endpoint.disabled',
  ],
  cliCommands: [WEBHOOKS_COMMANDS],
})
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookAttempt]), AuditModule, PlansModule],
  providers: [
    { provide: HostResolver, useClass: SystemResolver },
    OutboxRepository,
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookTriggers,
  ],
  exports: [HostResolver, OutboxRepository, WebhookEndpointsRepository, WebhookEndpointsService],
})
export class WebhookEventsModule {}
