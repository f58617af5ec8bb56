import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PLAN_NAMES } from '../../plans/index.js';
import { ID, INSTANT } from './schema-fields.js';

const perWindow = { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

@ApiSchema({ name: 'PlanLimits' })
export class PlanLimitsDto {
  @ApiProperty({ ...perWindow, description: 'Requests admitted per UTC minute.' })
  perMinute: number;

  @ApiProperty({ ...perWindow, description: 'Requests admitted per UTC day.' })
  perDay: number;
}

/** A client as the command-line tool prints it with --json. */
@ApiSchema({ name: 'Client' })
export class ClientDto {
  @ApiProperty(ID)
  id: number;

  @ApiProperty({ type: 'string', maxLength: 200 })
  name: string;

  @ApiProperty({ enum: PLAN_NAMES, enumName: 'PlanName' })
  plan: string;

  @ApiProperty({ type: PlanLimitsDto, description: "The plan's limits, or an enterprise client's own." })
  limits: PlanLimitsDto;

  @ApiProperty(INSTANT)
  createdAt: string;
}
