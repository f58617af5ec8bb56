import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../../../common/index.js';
import { AUDIT_ACTION_SCHEMA, ID, INSTANT, NEXT_CURSOR } from './schema-fields.js';

const nullableId = { ...ID, nullable: true } as const;

@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDto {
  @ApiProperty(ID)
  id: number;

  @ApiProperty(INSTANT)
  occurredAt: string;

  @ApiProperty({ type: 'string', maxLength: 40, pattern: '^(cli|admin-token:[0-9]+|key:[0-9]+)$', example: 'admin-token:3' })
  actor: string;

  @ApiProperty({ allOf: [{ $ref: AUDIT_ACTION_SCHEMA }] })
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

@ApiSchema({ name: 'AuditEventPage' })
export class AuditEventPageDto {
  @ApiProperty({ type: [AuditEventDto], maxItems: MAX_PAGE_SIZE, description: 'Newest first.' })
  items: AuditEventDto[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor: string | null;
}
