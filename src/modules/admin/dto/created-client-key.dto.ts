import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PLAN_NAMES } from '../../plans/index.js';
import { ClientKeyDto } from './client-key.dto.js';

/** What `keys create --json` prints: the key's fields, its client's plan, and the key, shown this once. */
@ApiSchema({ name: 'CreatedClientKey' })
export class CreatedClientKeyDto extends ClientKeyDto {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'PlanName', description: "The client's plan." })
  plan: string;

  @ApiProperty({
    type: 'string',
    maxLength: 43,
    pattern: '^pets_[0-9A-Za-z]{38}$',
    description: 'The key itself, shown this once: store it now.',
  })
  key: string;
}
