import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsDefined, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';
import { SCOPES, type Scope } from '../../auth/index.js';

export const MAX_EXPIRES_IN_SECONDS = 366 * 24 * 60 * 60;

@ApiSchema({ name: 'NewApiKey' })
export class NewApiKeyDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$',
    description: 'A name to recognise the key by; no control characters.',
  })
  @IsString()
  // The `u` flag counts code points, as the schema's lengths do.
  @Matches(/^[^]{1,100}$/u, { message: 'name must be 1 to 100 characters long' })
  @Matches(/\S/u, { message: 'name must contain a character that is not white space' })
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  @Matches(/^[^\u0000-\u001F\u007F]*$/u, { message: 'name must not contain control characters' })
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
