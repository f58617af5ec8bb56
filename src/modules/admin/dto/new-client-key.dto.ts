import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { OmittableProperty } from '../../../common/index.js';
import { ScopeListProperty } from '../../auth/index.js';
import { KEY_NAME_SCHEMA, KeyNameRules, NewApiKeyDto } from '../../keys/index.js';

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
