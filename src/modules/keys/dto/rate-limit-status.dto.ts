import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PLAN_NAMES } from '../../plans/index.js';

const count = { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

@ApiSchema({ name: 'QuotaWindow' })
export class QuotaWindowDto {
  @ApiProperty({ ...count, description: 'Requests the window admits.' })
  limit: number;

  @ApiProperty({ ...count, description: 'Requests it admits from now on; the next counted request, once admitted, reports one less.' })
  remaining: number;

  @ApiProperty({ ...count, description: 'Unix time, in seconds, at which the window ends.' })
  reset: number;
}

@ApiSchema({ name: 'RateLimitStatus' })
export class RateLimitStatusDto {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'PlanName' })
  plan: string;

  @ApiProperty({ type: QuotaWindowDto, description: 'The UTC minute.' })
  minute: QuotaWindowDto;

  @ApiProperty({ type: QuotaWindowDto, description: 'The UTC day.' })
  day: QuotaWindowDto;
}
