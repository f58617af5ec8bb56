import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { IdParam, OmittableProperty } from '../../../common/index.js';
import { ScopeListProperty, ScopeListRules } from '../../auth/index.js';

const MAX_EXPIRES_IN_SECONDS = 366 * 24 * 60 * 60;
export const MAX_OVERLAP_SECONDS = 86_400;
export const DEFAULT_OVERLAP_SECONDS = 3_600;

/** The documented form of a key's name, wherever a key is named (self-service, the admin API). */
export const KEY_NAME_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$',
  description: 'A name to recognise the key by; no control characters.',
} as const;

/**
 * The checks of a key's name, given in the order they are reported (the first failing one). A property
 * decorator list registers bottom-up, `applyDecorators` in order: hence the order here.
 */
export const KeyNameRules = () =>
  applyDecorators(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    Matches(/^[^\u0000-\u001F\u007F]*$/u, { message: 'name must not contain control characters' }),
    Matches(/\S/u, { message: 'name must contain a character that is not white space' }),
    // The `u` flag counts code points, as the schema's lengths do.
    Matches(/^[^]{1,100}$/u, { message: 'name must be 1 to 100 characters long' }),
    IsString(),
  );

/** An int32 a body may leave out, checked as `@IsInt() @Min() @Max() @OmittableProperty()` listed would be. */
const OptionalInteger = (minimum: number, maximum: number, options: ApiPropertyOptions) =>
  applyDecorators(
    OmittableProperty(),
    Max(maximum),
    Min(minimum),
    IsInt(),
    ApiProperty({ type: 'integer', format: 'int32', minimum, maximum, ...options, required: false } as ApiPropertyOptions),
  );

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

  @OptionalInteger(1, MAX_EXPIRES_IN_SECONDS, { description: 'Seconds until the key expires; never when omitted.' })
  expiresInSeconds?: number;
}

@ApiSchema({ name: 'RollApiKey' })
export class RollApiKeyDto {
  @OptionalInteger(0, MAX_OVERLAP_SECONDS, {
    default: DEFAULT_OVERLAP_SECONDS,
    description: 'Seconds the old key keeps working, never beyond its own expiry.',
  })
  overlapSeconds?: number;
}

export class KeyIdParams {
  @IdParam('keyId', 'The id of one of your keys.')
  keyId: number;
}
