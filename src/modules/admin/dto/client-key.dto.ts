import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ScopeListProperty } from '../../auth/index.js';
import { ID, INSTANT } from './schema-fields.js';

/** A key as the command-line tool lists it: never the key itself, never its hash. */
@ApiSchema({ name: 'ClientKey' })
export class ClientKeyDto {
  @ApiProperty(ID)
  id: number;

  @ApiProperty(ID)
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
  scopes: string[];

  @ApiProperty(INSTANT)
  createdAt: string;

  @ApiProperty({ ...INSTANT, nullable: true, description: 'When the key stops working; null if never.' })
  expiresAt: string | null;

  @ApiProperty({ ...INSTANT, nullable: true, description: 'When the key was revoked; null if it was not.' })
  revokedAt: string | null;

  @ApiProperty({ ...INSTANT, nullable: true, description: 'Its last use, recorded at most once a minute; null if never used.' })
  lastUsedAt: string | null;
}
