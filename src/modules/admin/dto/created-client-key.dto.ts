import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { NEW_KEY_SCHEMA } from '../../keys/index.js';
import { PLAN_NAMES } from '../../plans/index.js';
import { ClientKeyDto } from './client-key.dto.js';

/** What `keys create --json` prints: the key's fields, its client's plan, and the key, shown this once. */
@ApiSchema({ name: 'CreatedClientKey' })
export class CreatedClientKeyDto extends ClientKeyDto {
  @ApiProperty({ enum: PLAN_NAMES, enumName: 'PlanName', description: "The client's plan." })
  plan: string;

  @ApiProperty(NEW_KEY_SCHEMA)
  key: string;
}
