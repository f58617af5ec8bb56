import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ID_SCHEMA, INSTANT_SCHEMA } from '../../../common/index.js';
import { ScopeListProperty } from '../../auth/index.js';

/** A key as its client sees it: never the key itself, never its hash. */
@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty({ type: 'string', maxLength: 100, description: 'The name its client gave it; empty for keys made before names.' })
  name: string;

  @ApiProperty({ type: 'string', maxLength: 16, description: 'The first characters of the key, to recognise it by.' })
  prefix: string;

  @ScopeListProperty()
  scopes: string[];

  @ApiProperty(INSTANT_SCHEMA)
  createdAt: string;

  @ApiProperty({ ...INSTANT_SCHEMA, nullable: true, description: 'When the key stops working; null if never.' })
  expiresAt: string | null;

  @ApiProperty({ ...INSTANT_SCHEMA, nullable: true, description: 'The minute of its last use, or null if never used.' })
  lastUsedAt: string | null;
}

/** The new key in a 201, self-service or admin. */
export const NEW_KEY_SCHEMA = {
  type: 'string',
  maxLength: 43,
  pattern: '^pets_[0-9A-Za-z]{38}$',
  description: 'The key itself, shown this once: store it now.',
} as const;

@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty(NEW_KEY_SCHEMA)
  key: string;
}
