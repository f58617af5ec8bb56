import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';

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
