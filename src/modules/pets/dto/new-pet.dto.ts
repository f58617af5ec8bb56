import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';
import { PetStatus } from '../pet-status.js';
import { IdField, NAME_PATTERN, StatusField } from './pet-fields.js';

@ApiSchema({ name: 'NewPet' })
export class NewPetDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: NAME_PATTERN,
    description: "The animal's name: at least one character that is not white space, no control characters.",
  })
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
