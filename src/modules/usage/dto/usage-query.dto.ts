import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../usage-period.js';

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
