import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsDefined, IsIn, IsInt, Max, Min } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';
import { SCOPES, type Scope } from '../../auth/index.js';
import { KEY_NAME_SCHEMA, KeyNameRules } from './key-name.js';

export const MAX_EXPIRES_IN_SECONDS = 366 * 24 * 60 * 60;

@ApiSchema({ name: 'NewApiKey' })
export class NewApiKeyDto {
  @ApiProperty(KEY_NAME_SCHEMA)
  @KeyNameRules()
  @IsDefined({ message: 'name is required' })
  name: string;

  @ApiProperty({
    enum: SCOPES,
    enumName: 'Scope',
    isArray: true,
    required: false,
    minItems: 1,
    maxItems: SCOPES.length,
    description: 'What the key may do; `pets:read pets:write` when omitted. Only scopes the calling key has.',
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true, message: `each of scopes must be one of ${SCOPES.join(', ')}` })
  @OmittableProperty()
  scopes?: Scope[];

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
