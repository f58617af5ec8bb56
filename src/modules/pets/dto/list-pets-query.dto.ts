import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, ToInteger } from '../../../common/index.js';
import { PetStatus } from '../pet-status.js';
import { StatusField } from './pet-fields.js';

export class ListPetsQueryDto {
  @ApiProperty({
    required: false,
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Maximum number of animals returned.',
  })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  // The pipe reports the first failing constraint, in the order they register: bottom-up. The
  // type check goes last, so `abc` or a repeated parameter is told so, not "greater than 100".
  @IsInt({ message: 'limit must be a single integer' })
  limit?: number;

  @StatusField({ required: false, description: 'Filters by availability status.' })
  @IsOptional()
  status?: PetStatus;

  @ApiProperty({
    required: false,
    type: 'string',
    maxLength: 200,
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'Opaque position from the `next` link of the previous page.',
  })
  @IsOptional()
  @MaxLength(200)
  @IsString({ message: 'cursor must be given once' })
  cursor?: string;
}
