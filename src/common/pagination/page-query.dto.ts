import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../validation/app-validation.pipe.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './keyset-page.js';

/** A listing's `limit`: an integer from 1 to MAX_PAGE_SIZE. */
export const PageLimit = (description: string) =>
  applyDecorators(
    // Registered first, so reported first: `abc` or a repeated parameter is told so, not "must not be less than 1".
    IsInt({ message: 'limit must be a single integer' }),
    Max(MAX_PAGE_SIZE),
    Min(1),
    ToInteger(),
    IsOptional(),
    ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description }),
  );

/** A listing's `cursor`: the opaque position a page before gave. */
export const PageCursor = (description: string) =>
  applyDecorators(
    // Registered first, so reported first: a repeated parameter is told so.
    IsString({ message: 'cursor must be given once' }),
    MaxLength(200),
    IsOptional(),
    ApiPropertyOptional({ type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9._-]+$', description }),
  );

/** The query of a keyset listing: `?limit=&cursor=`, for a route to take as it is or extend with its filters. */
export class PageQueryDto {
  @PageLimit('Maximum number of items returned.')
  limit?: number;

  @PageCursor('Opaque position: the `nextCursor` of the previous page.')
  cursor?: string;
}
