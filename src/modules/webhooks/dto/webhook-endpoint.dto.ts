import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ID_SCHEMA, IdParam, INSTANT_SCHEMA, MAX_PAGE_SIZE, OmittableProperty } from '../../../common/index.js';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhook-event.js';

export const MAX_OVERLAP_SECONDS = 86_400;

/** The subscribable types, as one `WebhookEventType` schema. */
const EVENT_TYPES = {
  enum: [...SUBSCRIBABLE_EVENT_TYPES],
  enumName: 'WebhookEventType',
  isArray: true,
  minItems: 1,
  maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
} as const;
const EVENT_ID = { type: 'string', maxLength: 40, pattern: '^evt_[0-9a-f]{32}$', example: 'evt_0006461c2f1e9a40b1d4e5f6a7b8c9d0' } as const;
const URL_SCHEMA = {
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description: 'Where events are POSTed: `https://` in production, on a host that resolves to public addresses only.',
} as const;
const DESCRIPTION = { type: 'string', maxLength: 200, description: 'A note to recognise the endpoint by.' } as const;
const SECRET = {
  type: 'string',
  maxLength: 50,
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'The signing secret (Standard Webhooks), shown this once.',
} as const;

export class EndpointIdParams {
  @IdParam('endpointId', "The endpoint's id.")
  endpointId: number;
}

export class DeliveryParams extends EndpointIdParams {
  @ApiProperty({ ...EVENT_ID, description: 'The id of an event the endpoint was sent.' })
  @Matches(/^evt_[0-9a-f]{32}$/, { message: 'eventId must be an event id such as evt_0006461c2f1e9a40b1d4e5f6a7b8c9d0' })
  eventId: string;
}

@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty(URL_SCHEMA)
  url: string;

  @ApiProperty(EVENT_TYPES)
  eventTypes: string[];

  @ApiProperty(DESCRIPTION)
  description: string;

  @ApiProperty({ type: 'boolean', description: 'A disabled endpoint is sent nothing; its deliveries wait until it is enabled.' })
  enabled: boolean;

  @ApiProperty(INSTANT_SCHEMA)
  createdAt: string;

  @ApiProperty({ type: 'string', nullable: true, maxLength: 200, description: 'Why the service disabled the endpoint; null otherwise.' })
  disabledReason: string | null;
}

@ApiSchema({ name: 'CreatedWebhookEndpoint' })
export class CreatedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty(SECRET)
  secret: string;
}

const EventTypesRules = () =>
  applyDecorators(
    IsIn(SUBSCRIBABLE_EVENT_TYPES, { each: true, message: `eventTypes must each be one of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}` }),
    ArrayMaxSize(SUBSCRIBABLE_EVENT_TYPES.length),
    ArrayNotEmpty(),
    IsArray(),
  );

@ApiSchema({ name: 'NewWebhookEndpoint' })
export class NewWebhookEndpointDto {
  @ApiProperty(URL_SCHEMA)
  @MaxLength(2048)
  @IsString()
  @IsDefined({ message: 'url is required' })
  url: string;

  @ApiProperty({ ...EVENT_TYPES, description: 'The events to send; `webhook.test` is sent on request whatever the list.' })
  @EventTypesRules()
  @IsDefined({ message: 'eventTypes is required' })
  eventTypes: string[];

  @ApiProperty({ ...DESCRIPTION, required: false })
  @MaxLength(200)
  @IsString()
  @OmittableProperty()
  description?: string;
}

@ApiSchema({ name: 'WebhookEndpointChange' })
export class WebhookEndpointChangeDto extends PartialType(NewWebhookEndpointDto) {
  @ApiProperty({ type: 'boolean', required: false, description: 'False stops deliveries; true resumes them and clears `disabledReason`.' })
  @IsBoolean()
  @OmittableProperty()
  enabled?: boolean;
}

@ApiSchema({ name: 'SecretRotation' })
export class SecretRotationDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: MAX_OVERLAP_SECONDS,
    default: MAX_OVERLAP_SECONDS,
    required: false,
    description: 'Seconds during which deliveries carry the old signature beside the new one.',
  })
  @Max(MAX_OVERLAP_SECONDS)
  @Min(0)
  @IsInt()
  @OmittableProperty()
  overlapSeconds?: number;
}

@ApiSchema({ name: 'WebhookEventSent' })
export class WebhookEventSentDto {
  @ApiProperty({ ...EVENT_ID, description: 'The event on its way: the `webhook.test` sent, or the one redelivered.' })
  eventId: string;
}

@ApiSchema({ name: 'WebhookAttempt' })
export class WebhookAttemptDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty(EVENT_ID)
  eventId: string;

  @ApiProperty({ type: 'string', maxLength: 40, pattern: '^[a-z]+\\.[a-z_]+$', example: 'pet.created' })
  eventType: string;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1_000, description: '1 for the first attempt at the event.' })
  attempt: number;

  @ApiProperty(INSTANT_SCHEMA)
  attemptedAt: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 100,
    maximum: 599,
    nullable: true,
    description: "The receiver's status; null when there was no response.",
  })
  status: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: 40,
    description: 'Why there was no response: `timeout`, `connection_refused`, `blocked_address`, ...; null when there was one.',
  })
  error: string | null;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: 600_000,
    description: 'From the request to the response or the error.',
  })
  durationMs: number;
}

/** A page of attempts as the admin API and the command-line tool answer it (the public API's is a list and a `Link`). */
@ApiSchema({ name: 'WebhookAttemptPage' })
export class WebhookAttemptPageDto {
  @ApiProperty({ type: [WebhookAttemptDto], maxItems: MAX_PAGE_SIZE, description: 'Newest first.' })
  items: WebhookAttemptDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: 200,
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'Pass as `cursor` for the next, older page; null on the last page.',
  })
  nextCursor: string | null;
}

/** An endpoint as operators see it: its URL's host only, as the audit events name it. */
@ApiSchema({ name: 'ClientWebhookEndpoint' })
export class ClientWebhookEndpointDto extends OmitType(WebhookEndpointDto, ['url']) {
  @ApiProperty(ID_SCHEMA)
  clientId: number;

  @ApiProperty({
    type: 'string',
    maxLength: 2048,
    example: 'hooks.example.com',
    description: "The URL's host (and port): never its path or query, which may hold the receiver's token.",
  })
  host: string;
}

@ApiSchema({ name: 'ClientWebhookEndpointList' })
export class ClientWebhookEndpointListDto {
  @ApiProperty({ type: [ClientWebhookEndpointDto], maxItems: 10, description: 'In ascending id order.' })
  webhookEndpoints: ClientWebhookEndpointDto[];
}
