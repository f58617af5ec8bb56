import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../../src/common/index.js';

export class KennelIdParams {
  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000 })
  @ToInteger()
  @Min(1)
  @Max(1000)
  @IsInt({ message: 'kennelId must be an integer' })
  kennelId: number;
}
