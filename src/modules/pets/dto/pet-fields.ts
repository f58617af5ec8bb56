import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsEnum, IsInt, Max, Min } from 'class-validator';
import { PetStatus } from '../pet-status.js';

/** A name: no control characters, and at least one character that is not white space (the contract's pattern). */
export const NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';

/** Ids are int64 in the interface but capped at 2^53 - 1 so every JSON client reads them exactly. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

const idSchema = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID } as const;

/** `IsInt` registers first, so it is the failure reported for `abc`. */
export const IdField = (options: ApiPropertyOptions = {}, notInteger?: string) =>
  applyDecorators(ApiProperty({ ...idSchema, ...options }), IsInt(notInteger ? { message: notInteger } : {}), Min(1), Max(MAX_ID));

export const StatusField = (options: ApiPropertyOptions = {}) =>
  applyDecorators(
    ApiProperty({ enum: PetStatus, enumName: 'PetStatus', ...options }),
    IsEnum(PetStatus, { message: 'status must be one of available, pending, sold' }),
  );
