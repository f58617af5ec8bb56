import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from '../../../../src/common/index.js';

export class KennelIdParams {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  @ToInteger()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  @IsInt({ message: 'kennelId must be an integer' })
  kennelId: number;
}
