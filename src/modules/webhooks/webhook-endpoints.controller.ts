import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiExtraModels,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  apiBaseUrl,
  ApiErrorResponses,
  Caller,
  DEFAULT_PAGE_SIZE,
  locationHeader,
  MAX_PAGE_SIZE,
  nextLinkHeader,
  PageQueryDto,
  PayloadTooLargeException,
  setNextLink,
  UnsupportedMediaTypeException,
  type Principal,
} from '../../common/index.js';
import { Change, type ChangeContext } from '../audit/index.js';
import { RequiredScope } from '../auth/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { Idempotent, IDEMPOTENT_BODY_ERRORS } from '../../policies/idempotency/index.js';
import { V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import {
  CreatedWebhookEndpointDto,
  DeliveryParams,
  EndpointIdParams,
  MAX_OVERLAP_SECONDS,
  NewWebhookEndpointDto,
  SecretRotationDto,
  WebhookAttemptDto,
  WebhookEndpointChangeDto,
  WebhookEndpointDto,
  WebhookEventSentDto,
} from './dto/webhook-endpoint.dto.js';
import { MAX_ENDPOINTS, WebhookEndpointsService } from './webhook-endpoints.service.js';
import { EndpointLimitReachedException, EndpointNotFoundException } from './webhooks.exceptions.js';
import { WEBHOOKS_TAG } from './webhooks.openapi.js';

const WITH_SECRET = { type: CreatedWebhookEndpointDto, headers: locationHeader('URL of the endpoint.') } as const;

@ApiTags(WEBHOOKS_TAG)
@ApiExtraModels(WebhookEndpointDto, WebhookAttemptDto)
@RequiredScope('webhooks:manage')
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  private readonly publicBaseUrl = this.config.getOrThrow<AppConfig>('app').publicBaseUrl;

  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly config: ConfigService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The client's webhook endpoints", description: `At most ${MAX_ENDPOINTS}, in ascending id order.` })
  @ApiOkResponse({
    description: 'The endpoints, in ascending id order.',
    schema: { type: 'array', maxItems: MAX_ENDPOINTS, items: { $ref: getSchemaPath(WebhookEndpointDto) } },
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  listWebhookEndpoints(@Caller() caller: Principal): Promise<WebhookEndpointDto[]> {
    return this.endpoints.list(caller.clientId);
  }

  @Post()
  @Idempotent({ sealed: true })
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description: `Its signing secret is shown this once. A client has at most ${MAX_ENDPOINTS}.`,
  })
  @ApiBody({ type: NewWebhookEndpointDto, required: true })
  @ApiCreatedResponse({ ...WITH_SECRET, description: 'The endpoint and its secret.' })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, ...IDEMPOTENT_BODY_ERRORS, EndpointLimitReachedException)
  async createWebhookEndpoint(
    @Caller() caller: Principal,
    @Body() body: NewWebhookEndpointDto,
    @Change() change: ChangeContext,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedWebhookEndpointDto> {
    const endpoint = await this.endpoints.create(caller.clientId, body, change);
    response.setHeader('Location', `${apiBaseUrl(request, this.publicBaseUrl)}/webhook-endpoints/${endpoint.id}`);
    return endpoint;
  }

  @Get(':endpointId')
  @ApiOperation({
    summary: 'Get a webhook endpoint',
    description: "One of the caller's client's endpoints; another client's is not found.",
  })
  @ApiOkResponse({ description: 'The endpoint.', type: WebhookEndpointDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, EndpointNotFoundException)
  getWebhookEndpoint(@Caller() caller: Principal, @Param() { endpointId }: EndpointIdParams): Promise<WebhookEndpointDto> {
    return this.endpoints.get(caller.clientId, endpointId);
  }

  @Patch(':endpointId')
  @ApiOperation({ summary: 'Change a webhook endpoint', description: 'Only the fields given change.' })
  @ApiBody({ type: WebhookEndpointChangeDto, required: true })
  @ApiOkResponse({ description: 'The endpoint as changed.', type: WebhookEndpointDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, PayloadTooLargeException, UnsupportedMediaTypeException, EndpointNotFoundException)
  updateWebhookEndpoint(
    @Caller() caller: Principal,
    @Param() { endpointId }: EndpointIdParams,
    @Body() body: WebhookEndpointChangeDto,
    @Change() change: ChangeContext,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.update(caller.clientId, endpointId, body, change);
  }

  @Delete(':endpointId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Its pending deliveries are dropped.' })
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, EndpointNotFoundException)
  async deleteWebhookEndpoint(
    @Caller() caller: Principal,
    @Param() { endpointId }: EndpointIdParams,
    @Change() change: ChangeContext,
  ): Promise<void> {
    await this.endpoints.remove(caller.clientId, endpointId, change);
  }

  @Post(':endpointId/rotate-secret')
  @Idempotent({ sealed: true })
  @ApiOperation({
    summary: "Rotate an endpoint's secret",
    description: `A new secret, shown this once; deliveries carry both signatures for \`overlapSeconds\` (${MAX_OVERLAP_SECONDS} when omitted).`,
  })
  @ApiBody({ type: SecretRotationDto, required: false })
  @ApiCreatedResponse({ ...WITH_SECRET, description: 'The endpoint and its new secret.' })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, ...IDEMPOTENT_BODY_ERRORS, EndpointNotFoundException)
  rotateWebhookSecret(
    @Caller() caller: Principal,
    @Param() { endpointId }: EndpointIdParams,
    @Body() { overlapSeconds = MAX_OVERLAP_SECONDS }: SecretRotationDto,
    @Change() change: ChangeContext,
  ): Promise<CreatedWebhookEndpointDto> {
    return this.endpoints.rotateSecret(caller.clientId, endpointId, overlapSeconds, change);
  }

  @Post(':endpointId/test')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Send a test event', description: 'A `webhook.test` event to this endpoint alone.' })
  @ApiAcceptedResponse({ description: 'The event is on its way.', type: WebhookEventSentDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, EndpointNotFoundException)
  testWebhookEndpoint(@Caller() caller: Principal, @Param() { endpointId }: EndpointIdParams): Promise<WebhookEventSentDto> {
    return this.endpoints.sendTest(caller.clientId, endpointId);
  }

  @Get(':endpointId/deliveries')
  @ApiOperation({ summary: "An endpoint's delivery attempts", description: 'Newest first, with the response status or the error.' })
  @ApiOkResponse({
    description: 'A page of attempts, newest first; the `Link` header leads to the next, older page.',
    headers: nextLinkHeader,
    schema: { type: 'array', maxItems: MAX_PAGE_SIZE, items: { $ref: getSchemaPath(WebhookAttemptDto) } },
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, EndpointNotFoundException)
  async listWebhookDeliveries(
    @Caller() caller: Principal,
    @Param() { endpointId }: EndpointIdParams,
    @Query() page: PageQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookAttemptDto[]> {
    const { items, nextCursor } = await this.endpoints.attempts(caller.clientId, endpointId, page);
    const path = `/webhook-endpoints/${endpointId}/deliveries`;
    setNextLink(response, request, this.publicBaseUrl, path, { limit: page.limit ?? DEFAULT_PAGE_SIZE }, nextCursor);
    return items;
  }

  @Post(':endpointId/deliveries/:eventId/redeliver')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Deliver an event again', description: 'One more attempt, now.' })
  @ApiAcceptedResponse({ description: 'The attempt is on its way.', type: WebhookEventSentDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, EndpointNotFoundException)
  async redeliverWebhookEvent(@Caller() caller: Principal, @Param() { endpointId, eventId }: DeliveryParams): Promise<WebhookEventSentDto> {
    await this.endpoints.redeliver(caller.clientId, endpointId, eventId);
    return { eventId };
  }
}
