import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString } from 'class-validator';
import { OmittableProperty } from '../../../common/index.js';
import { PLAN_NAMES } from '../../plans/index.js';

const limit = (what: string) =>
  ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    required: false,
    description: `Requests a client may make ${what}: required on \`enterprise\`, refused on the other plans.`,
  });

/** A plan and, on `enterprise`, its limits. Only types are checked here: the plan rules are the plans module's, for the CLI alike. */
@ApiSchema({ name: 'ClientPlan' })
export class ClientPlanDto {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'PlanName' })
  @IsString()
  @IsDefined({ message: 'plan is required' })
  plan: string;

  @limit('a UTC minute')
  @IsInt()
  @OmittableProperty()
  perMinute?: number;

  @limit('a UTC day')
  @IsInt()
  @OmittableProperty()
  perDay?: number;
}
