import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsEnum, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { OmittableProperty, PageLimit, ToInteger } from '../../../common/index.js';
import { PetStatus } from '../pet-status.js';

/** A name: no control characters, and at least one character that is not white space (the contract's pattern). */
const NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';
const nameSchema = { type: 'string', minLength: 1, maxLength: 100, pattern: NAME_PATTERN } as const;

/** Ids are int64 in the interface but capped at 2^53 - 1 so every JSON client reads them exactly. */
const MAX_ID = Number.MAX_SAFE_INTEGER;
const idSchema = { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID } as const;
const statusSchema = { enum: PetStatus, enumName: 'PetStatus' };

/** `IsInt` registers first, so it is the failure reported for `abc`. */
const IdField = (options: ApiPropertyOptions, notInteger?: string) =>
  applyDecorators(ApiProperty({ ...idSchema, ...options }), IsInt(notInteger ? { message: notInteger } : {}), Min(1), Max(MAX_ID));

const StatusField = (options: ApiPropertyOptions) =>
  applyDecorators(
    ApiProperty({ ...statusSchema, ...options }),
    IsEnum(PetStatus, { message: 'status must be one of available, pending, sold' }),
  );

@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty(idSchema)
  id: number;

  @ApiProperty(nameSchema)
  name: string;

  @ApiProperty(idSchema)
  categoryId: number;

  @ApiProperty(statusSchema)
  status: PetStatus;
}

@ApiSchema({ name: 'NewPet' })
export class NewPetDto {
  @ApiProperty({ ...nameSchema, description: "The animal's name: at least one character that is not white space, no control characters." })
  @IsString()
  // Lengths count Unicode code points; the `u` flag makes `{1,100}` do exactly that.
  @Matches(/^[^]{1,100}$/u, { message: 'name must be 1 to 100 characters long' })
  // Not white space by the contract's pattern (ECMAScript \s) nor by Unicode White_Space (DECISIONS.md).
  // eslint-disable-next-line no-control-regex -- control characters are not the character asked for
  @Matches(/[^\s\p{White_Space}\u0000-\u001F\u007F]/u, { message: 'name must contain a character that is not white space' })
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  @Matches(/^[^\u0000-\u001F\u007F]*$/u, { message: 'name must not contain control characters' })
  // Checked first (the last decorator runs first), so a missing name is called missing.
  @IsDefined({ message: 'name is required' })
  name: string;

  @IdField({ description: 'Identifier of the category the animal belongs to.' })
  @IsDefined({ message: 'categoryId is required' })
  categoryId: number;

  @StatusField({ required: false, description: 'Availability of the animal; `available` when omitted.' })
  @OmittableProperty()
  status?: PetStatus;
}

export class ListPetsQueryDto {
  @PageLimit('Maximum number of animals returned.')
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

export class PetIdParams {
  @IdField({ description: 'The identifier of the animal to retrieve.' }, 'petId must be an integer')
  @ToInteger()
  petId: number;
}
