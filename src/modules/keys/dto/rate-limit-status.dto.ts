import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { COUNT_SCHEMA } from '../../../common/index.js';
import { PLAN_NAMES } from '../../plans/index.js';

@ApiSchema({ name: 'QuotaWindow' })
export class QuotaWindowDto {
  @ApiProperty({ ...COUNT_SCHEMA, description: 'Requests the window admits.' })
  limit: number;

  @ApiProperty({
    ...COUNT_SCHEMA,
    description: 'Requests it admits from now on; the next counted request, once admitted, reports one less.',
  })
  remaining: number;

  @ApiProperty({ ...COUNT_SCHEMA, description: 'Unix time, in seconds, at which the window ends.' })
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
