import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from './app-validation.pipe.js';

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Ids are int64 in the interface but capped at 2^53 - 1 so every JSON client reads them exactly. */
export const ID_SCHEMA = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID } as const;

/** A count: int64 from 0, capped as ids are. */
export const COUNT_SCHEMA = { ...ID_SCHEMA, minimum: 0 } as const;

/** An instant, as an RFC 3339 date-time. */
export const INSTANT_SCHEMA = { type: 'string', format: 'date-time', maxLength: 30 } as const;

/** An id in a body, documented and checked. `IsInt` registers first, so it is the failure reported for `1.5`. */
export const IdField = (description: string) => applyDecorators(ApiProperty({ ...ID_SCHEMA, description }), IsInt(), Min(1), Max(MAX_ID));

/** An id in the path: digits become a number, and `abc` is told `<name> must be an integer` (the type check registers first). */
export const IdParam = (name: string, description: string) =>
  applyDecorators(
    ApiProperty({ ...ID_SCHEMA, description }),
    IsInt({ message: `${name} must be an integer` }),
    Min(1),
    Max(MAX_ID),
    ToInteger(),
  );
