import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsDefined, IsEnum, IsOptional, IsString, Matches } from 'class-validator';
import { ID_SCHEMA, IdField, IdParam, OmittableProperty, PageCursor, PageLimit } from '../../../common/index.js';
import { PetStatus } from '../pet-status.js';

/** A name: no control characters, and at least one character that is not white space (the contract's pattern). */
const NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\s\\u0000-\\u001F\\u007F][^\\u0000-\\u001F\\u007F]*$';
const nameSchema = { type: 'string', minLength: 1, maxLength: 100, pattern: NAME_PATTERN } as const;

const statusSchema = { enum: PetStatus, enumName: 'PetStatus' };

const StatusField = (options: ApiPropertyOptions) =>
  applyDecorators(
    ApiProperty({ ...statusSchema, ...options }),
    IsEnum(PetStatus, { message: 'status must be one of available, pending, sold' }),
  );

@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty(ID_SCHEMA)
  id: number;

  @ApiProperty(nameSchema)
  name: string;

  @ApiProperty(ID_SCHEMA)
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

  @IdField('Identifier of the category the animal belongs to.')
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

  @PageCursor('Opaque position from the `next` link of the previous page.')
  cursor?: string;
}

export class PetIdParams {
  @IdParam('petId', 'The identifier of the animal to retrieve.')
  petId: number;
}
