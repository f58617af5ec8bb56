import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';
import { ScopeListProperty, ScopeListRules } from '../../auth/index.js';
import { KEY_NAME_SCHEMA, KeyNameRules } from './key-name.js';

export const MAX_EXPIRES_IN_SECONDS = 366 * 24 * 60 * 60;

@ApiSchema({ name: 'NewApiKey' })
export class NewApiKeyDto {
  @ApiProperty(KEY_NAME_SCHEMA)
  @KeyNameRules()
  @IsDefined({ message: 'name is required' })
  name: string;

  @ScopeListProperty({
    required: false,
    minItems: 1,
    description: 'What the key may do; the default scopes when omitted. Only scopes the calling key has.',
  })
  @ScopeListRules()
  @OmittableProperty()
  scopes?: string[];

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_EXPIRES_IN_SECONDS,
    required: false,
    description: 'Seconds until the key expires; never when omitted.',
  })
  @IsInt()
  @Min(1)
  @Max(MAX_EXPIRES_IN_SECONDS)
  @OmittableProperty()
  expiresInSeconds?: number;
}
