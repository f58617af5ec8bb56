import { ApiProperty, ApiSchema, PickType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { COUNT_SCHEMA, ID_SCHEMA } from '../../../common/index.js';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../usage-period.js';
import { MAX_USAGE_ROWS } from '../usage.service.js';

const date = { type: 'string', format: 'date', maxLength: 10 } as const;

@ApiSchema({ name: 'KeyUsage' })
export class KeyUsageDto {
  @ApiProperty({ ...date, description: 'The UTC day.' })
  day: string;

  @ApiProperty({ ...ID_SCHEMA, description: 'The key, live or not.' })
  keyId: number;

  @ApiProperty({ ...COUNT_SCHEMA, description: 'Requests admitted.' })
  admitted: number;

  @ApiProperty({
    ...COUNT_SCHEMA,
    description: 'Requests refused with 429: over the quota (`rate_limit_exceeded`) or suspended (`api_key_suspended`).',
  })
  refused: number;
}

@ApiSchema({ name: 'UsageTotals' })
export class UsageTotalsDto extends PickType(KeyUsageDto, ['admitted', 'refused'] as const) {}

@ApiSchema({ name: 'Usage' })
export class UsageDto {
  @ApiProperty({ ...date, description: 'The first UTC day read.' })
  from: string;

  @ApiProperty({ ...date, description: 'The last UTC day read.' })
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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = { required: false, type: 'string', format: 'date', maxLength: 10, pattern: DAY.source } as const;

/** The calendar and the period's length are checked by the service, which the other readers share. */
export class UsageQueryDto {
  @ApiProperty({ ...day, description: `The first UTC day (YYYY-MM-DD); by default ${DEFAULT_USAGE_DAYS - 1} days before \`to\`.` })
  @IsOptional()
  @Matches(DAY, { message: 'from must be a UTC day as YYYY-MM-DD' })
  // Checked first (decorators register bottom-up), so a repeated parameter is told so.
  @IsString({ message: 'from must be given once' })
  from?: string;

  @ApiProperty({ ...day, description: `The last UTC day (YYYY-MM-DD); today by default. At most ${MAX_USAGE_DAYS} days from \`from\`.` })
  @IsOptional()
  @Matches(DAY, { message: 'to must be a UTC day as YYYY-MM-DD' })
  @IsString({ message: 'to must be given once' })
  to?: string;
}
