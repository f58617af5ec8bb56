import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiKeyDto } from './api-key.dto.js';

/** The new key in a 201, self-service or admin. */
export const NEW_KEY_SCHEMA = {
  type: 'string',
  maxLength: 43,
  pattern: '^pets_[0-9A-Za-z]{38}$',
  description: 'The key itself, shown this once: store it now.',
} as const;

@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty(NEW_KEY_SCHEMA)
  key: string;
}
