import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ApiKeyDto } from './api-key.dto.js';

@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({
    type: 'string',
    maxLength: 43,
    pattern: '^pets_[0-9A-Za-z]{38}$',
    description: 'The key itself, shown this once: store it now.',
  })
  key: string;
}
