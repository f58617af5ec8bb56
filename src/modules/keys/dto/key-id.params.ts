import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../../common/index.js';

export class KeyIdParams {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'The id of one of your keys.',
  })
  @IsInt({ message: 'keyId must be an integer' })
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  @ToInteger()
  keyId: number;
}
