import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../../common/index.js';
import { MAX_ID } from './pet-fields.js';

export class PetIdParams {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID, description: 'The identifier of the animal to retrieve.' })
  @ToInteger()
  @Min(1)
  @Max(MAX_ID)
  // Registered first (decorators apply bottom-up), so it is the failure reported for `abc`.
  @IsInt({ message: 'petId must be an integer' })
  petId: number;
}
