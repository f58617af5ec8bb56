import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { MAX_USAGE_ROWS } from '../usage.service.js';

const count = { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const day = { type: 'string', format: 'date', maxLength: 10 } as const;
const admitted = { ...count, description: 'Requests admitted.' };
const refused = {
  ...count,
  description: 'Requests refused with 429: over the quota (`rate_limit_exceeded`) or suspended (`api_key_suspended`).',
};

@ApiSchema({ name: 'KeyUsage' })
export class KeyUsageDto {
  @ApiProperty({ ...day, description: 'The UTC day.' })
  day: string;

  @ApiProperty({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The key, live or not.' })
  keyId: number;

  @ApiProperty(admitted)
  admitted: number;

  @ApiProperty(refused)
  refused: number;
}

@ApiSchema({ name: 'UsageTotals' })
export class UsageTotalsDto {
  @ApiProperty(admitted)
  admitted: number;

  @ApiProperty(refused)
  refused: number;
}

@ApiSchema({ name: 'Usage' })
export class UsageDto {
  @ApiProperty({ ...day, description: 'The first UTC day read.' })
  from: string;

  @ApiProperty({ ...day, description: 'The last UTC day read.' })
  to: string;

  @ApiProperty({
    type: KeyUsageDto,
    isArray: true,
    maxItems: MAX_USAGE_ROWS,
    description: 'Per UTC day and key, by day then key id; a day or key without requests has no entry.',
  })
  days: KeyUsageDto[];

  @ApiProperty({ type: UsageTotalsDto, description: 'The sums over the period.' })
  totals: UsageTotalsDto;
}
