import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../../../common/index.js';
import { ClientKeyDto } from './client-key.dto.js';
import { NEXT_CURSOR } from './schema-fields.js';

@ApiSchema({ name: 'ClientKeyPage' })
export class ClientKeyPageDto {
  @ApiProperty({ type: [ClientKeyDto], maxItems: MAX_PAGE_SIZE, description: 'Live, expired and revoked keys, in ascending id order.' })
  keys: ClientKeyDto[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor: string | null;
}
