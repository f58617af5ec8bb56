import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_PAGE_SIZE } from '../../../../src/common/index.js';
import { KENNEL_NAME, PLACES } from './kennel-fields.js';

@ApiSchema({ name: 'Kennel' })
export class KennelDto {
  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  id: number;

  @ApiProperty(KENNEL_NAME)
  name: string;

  @ApiProperty(PLACES)
  places: number;
}

@ApiSchema({ name: 'KennelPage' })
export class KennelPageDto {
  @ApiProperty({ type: [KennelDto], maxItems: MAX_PAGE_SIZE, description: 'In ascending id order.' })
  items: KennelDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    maxLength: 200,
    pattern: '^[A-Za-z0-9._-]+$',
    description: 'The next page; null on the last.',
  })
  nextCursor: string | null;
}
