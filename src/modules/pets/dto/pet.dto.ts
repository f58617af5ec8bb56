import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PetStatus } from '../pet-status.js';
import { MAX_ID, NAME_PATTERN } from './pet-fields.js';

@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID })
  id: number;

  @ApiProperty({ type: 'string', minLength: 1, maxLength: 100, pattern: NAME_PATTERN })
  name: string;

  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID })
  categoryId: number;

  @ApiProperty({ enum: PetStatus, enumName: 'PetStatus' })
  status: PetStatus;
}
