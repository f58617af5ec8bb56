import { applyDecorators, type Type } from '@nestjs/common';
import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import {
  COUNT_SCHEMA,
  ID_SCHEMA,
  IdParam,
  INSTANT_SCHEMA,
  MAX_PAGE_SIZE,
  OmittableProperty,
  PageQueryDto,
  ToInteger,
} from '../../common/index.js';
import { ScopeListProperty } from '../auth/index.js';
import { KEY_NAME_SCHEMA, KeyNameRules, NEW_KEY_SCHEMA, NewApiKeyDto } from '../keys/index.js';
import { CLIENT_NAME_MAX_LENGTH, PLAN_NAMES } from '../plans/index.js';

const NEXT_CURSOR = {
  type: 'string',
  nullable: true,
  maxLength: 200,
  pattern: '^[A-Za-z0-9._-]+$',
  description: 'Pass as `cursor` for the next page; null on the last page.',
} as const;
const PLAN_NAME = { enum: PLAN_NAMES, enumName: 'PlanName' };

/** A page of a listing: its items under `field`, then the cursor of the next page (decorated in that order, as the schema lists them). */
function CursorPage<F extends string, T>(name: string, field: F, items: Type<T>, description: string) {
  class Page {}
  ApiProperty({ type: [items], maxItems: MAX_PAGE_SIZE, description })(Page.prototype, field);
  ApiProperty(NEXT_CURSOR)(Page.prototype, 'nextCursor');
  ApiSchema({ name })(Page);
  return Page as Type<Record<F, T[]> & { nextCursor: string | null }>;
}

export class ClientIdParams {
  @IdParam('clientId', "The client's id.")
  clientId: number;
}

export class ClientKeyParams extends ClientIdParams {
  @IdParam('keyId', "The id of one of the client's keys.")
  keyId: number;
}

@ApiSchema({ name: 'PlanLimits' })
export class PlanLimitsDto {
  @ApiProperty({ ...COUNT_SCHEMA, description: 'Requests admitted per UTC minute.' })
  perMinute: number;

  @ApiProperty({ ...COUNT_SCHEMA, description: 'Requests admitted per UTC day.' })
  perDay: number;
}

/** A client as the command-line tool prints it with --json. */
@ApiSchema({ name: 'Client' })
export class ClientDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty({ type: 'string', maxLength: 200 })
  name: string;

  @ApiProperty(PLAN_NAME)
  plan: string;

  @ApiProperty({ type: PlanLimitsDto, description: "The plan's limits, or an enterprise client's own." })
  limits: PlanLimitsDto;

  @ApiProperty(INSTANT_SCHEMA)
  createdAt: string;
}

export const ClientPageDto = CursorPage('ClientPage', 'clients', ClientDto, 'In ascending id order.');
export type ClientPageDto = InstanceType<typeof ClientPageDto>;

const Limit = (what: string) =>
  applyDecorators(
    OmittableProperty(),
    IsInt(),
    ApiProperty({
      ...ID_SCHEMA,
      required: false,
      description: `Requests a client may make ${what}: required on \`enterprise\`, refused on the other plans.`,
    }),
  );

/** A plan and, on `enterprise`, its limits. Only types are checked here: the plan rules are the plans module's, for the CLI alike. */
@ApiSchema({ name: 'ClientPlan' })
export class ClientPlanDto {
  @ApiProperty(PLAN_NAME)
  @IsString()
  @IsDefined({ message: 'plan is required' })
  plan: string;

  @Limit('a UTC minute')
  perMinute?: number;

  @Limit('a UTC day')
  perDay?: number;
}

@ApiSchema({ name: 'NewClient' })
export class NewClientDto extends ClientPlanDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: CLIENT_NAME_MAX_LENGTH,
    description: "The paying account's name, trimmed; not only white space.",
  })
  @IsString()
  @IsDefined({ message: 'name is required' })
  name: string;
}

/** A key as the command-line tool lists it: never the key itself, never its hash. */
@ApiSchema({ name: 'ClientKey' })
export class ClientKeyDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty(ID_SCHEMA)
  clientId: number;

  @ApiProperty({ type: 'string', maxLength: 100, description: 'Empty for keys made without a name.' })
  name: string;

  @ApiProperty({
    type: 'string',
    maxLength: 16,
    pattern: '^pets_[0-9A-Za-z]{8}$',
    description: 'The first characters of the key, to recognise it by.',
  })
  prefix: string;

  @ScopeListProperty()
  scopes: readonly string[];

  @ApiProperty(INSTANT_SCHEMA)
  createdAt: string;

  @ApiProperty({ ...INSTANT_SCHEMA, nullable: true, description: 'When the key stops working; null if never.' })
  expiresAt: string | null;

  @ApiProperty({ ...INSTANT_SCHEMA, nullable: true, description: 'When the key was revoked; null if it was not.' })
  revokedAt: string | null;

  @ApiProperty({ ...INSTANT_SCHEMA, nullable: true, description: 'Its last use, recorded at most once a minute; null if never used.' })
  lastUsedAt: string | null;
}

export const ClientKeyPageDto = CursorPage('ClientKeyPage', 'keys', ClientKeyDto, 'Live, expired and revoked keys, in ascending id order.');
export type ClientKeyPageDto = InstanceType<typeof ClientKeyPageDto>;

/** What `keys create --json` prints: the key's fields, its client's plan, and the key, shown this once. */
@ApiSchema({ name: 'CreatedClientKey' })
export class CreatedClientKeyDto extends ClientKeyDto {
  @ApiProperty({ ...PLAN_NAME, description: "The client's plan." })
  plan: string;

  @ApiProperty(NEW_KEY_SCHEMA)
  key: string;
}

/** The self-service body's checks; the name may be left out, as the command-line tool leaves it, and any scope is allowed. */
@ApiSchema({ name: 'NewClientKey' })
export class NewClientKeyDto extends PickType(NewApiKeyDto, ['scopes', 'expiresInSeconds'] as const) {
  @ApiProperty({ ...KEY_NAME_SCHEMA, required: false, description: 'A name to recognise the key by; empty when omitted.' })
  @KeyNameRules()
  @OmittableProperty()
  name?: string;

  @ScopeListProperty({ required: false, minItems: 1, description: 'What the key may do; the default scopes when omitted.' })
  declare scopes?: string[];
}

const nullableId = { ...ID_SCHEMA, nullable: true } as const;

@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty(INSTANT_SCHEMA)
  occurredAt: string;

  @ApiProperty({ type: 'string', maxLength: 40, pattern: '^(cli|admin-token:[0-9]+|key:[0-9]+)$', example: 'admin-token:3' })
  actor: string;

  /** Every module's audit actions (AppParts), defined when the admin document is built. */
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/AuditAction' }] })
  action: string;

  @ApiProperty({ ...nullableId, description: 'The client the change touched.' })
  clientId: number | null;

  @ApiProperty({ ...nullableId, description: 'The API key the change touched.' })
  keyId: number | null;

  @ApiProperty({ type: 'string', nullable: true, maxLength: 200, description: 'The `X-Request-Id` of the change, when made over HTTP.' })
  requestId: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Facts of the change (an old and new plan, a successor key id); never a secret.',
  })
  details: Record<string, unknown>;
}

export const AuditEventPageDto = CursorPage('AuditEventPage', 'items', AuditEventDto, 'Newest first.');
export type AuditEventPageDto = InstanceType<typeof AuditEventPageDto>;

/** The filters of `audit list`; the page size and cursor rules are the audit service's, which the tool shares. */
export class AuditEventsQueryDto extends PageQueryDto {
  @ApiProperty({ ...ID_SCHEMA, required: false, description: 'Only the events of this client.' })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt({ message: 'clientId must be a single integer' })
  clientId?: number;

  @ApiProperty({
    required: false,
    type: 'string',
    maxLength: 50,
    pattern: '^[a-z][a-z_]*\\.[a-z][a-z_]*$',
    description: 'Only the events of this action (an `AuditAction`).',
  })
  @IsOptional()
  @MaxLength(50)
  @IsString({ message: 'action must be given once' })
  action?: string;
}
