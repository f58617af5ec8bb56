import { Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, PageQueryDto } from '../../common/index.js';
import { ClientIdParams, EVERY_ADMIN_OPERATION_ERRORS } from '../admin/index.js';
import { Change, type ChangeContext } from '../audit/index.js';
import { ClientNotFoundError, ClientsService } from '../plans/index.js';
import {
  ClientWebhookEndpointDto,
  ClientWebhookEndpointListDto,
  EndpointIdParams,
  WebhookAttemptPageDto,
} from './dto/webhook-endpoint.dto.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { EndpointNotFoundException } from './webhooks.exceptions.js';
import { WEBHOOKS_TAG } from './webhooks.openapi.js';

/** For operators, on the admin API (docs/contract/decisions.md, "Events and webhooks"): as the `webhooks` commands of the tool. */
@ApiTags(WEBHOOKS_TAG)
@Controller('admin/v1')
export class WebhooksAdminController {
  constructor(
    private readonly clients: ClientsService,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  @Get('clients/:clientId/webhook-endpoints')
  @ApiOperation({ summary: "List a client's webhook endpoints", description: 'Their hosts, never a secret. As `webhooks list --client`.' })
  @ApiOkResponse({ description: 'The endpoints, in id order.', type: ClientWebhookEndpointListDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundError)
  async listClientWebhookEndpoints(@Param() { clientId }: ClientIdParams): Promise<ClientWebhookEndpointListDto> {
    await this.clients.get(clientId);
    return { webhookEndpoints: await this.endpoints.listForOperator(clientId) };
  }

  @Get('webhook-endpoints/:endpointId/deliveries')
  @ApiOperation({
    summary: "List an endpoint's delivery attempts",
    description: 'Newest first, a page at a time. As `webhooks deliveries`.',
  })
  @ApiOkResponse({ description: 'A page of attempts.', type: WebhookAttemptPageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, EndpointNotFoundException)
  listWebhookEndpointDeliveries(@Param() { endpointId }: EndpointIdParams, @Query() page: PageQueryDto): Promise<WebhookAttemptPageDto> {
    return this.endpoints.attempts(undefined, endpointId, page);
  }

  @Post('webhook-endpoints/:endpointId/disable')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Disable a webhook endpoint',
    description:
      'It is sent nothing until its client enables it again; its deliveries wait. Already disabled: unchanged. As `webhooks disable`.',
  })
  @ApiOkResponse({ description: 'The endpoint, disabled.', type: ClientWebhookEndpointDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, EndpointNotFoundException)
  async disableWebhookEndpoint(
    @Param() { endpointId }: EndpointIdParams,
    @Change() change: ChangeContext,
  ): Promise<ClientWebhookEndpointDto> {
    return (await this.endpoints.disable(endpointId, change)).endpoint;
  }
}
