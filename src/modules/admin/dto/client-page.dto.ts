import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../../../common/index.js';
import { ClientDto } from './client.dto.js';
import { NEXT_CURSOR } from './schema-fields.js';

@ApiSchema({ name: 'ClientPage' })
export class ClientPageDto {
  @ApiProperty({ type: [ClientDto], maxItems: MAX_PAGE_SIZE, description: 'In ascending id order.' })
  clients: ClientDto[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor: string | null;
}
