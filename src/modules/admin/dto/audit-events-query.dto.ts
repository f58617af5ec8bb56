import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { PageQueryDto, ToInteger } from '../../../common/index.js';
import { AUDIT_ACTION_PATTERN, ID } from './schema-fields.js';

/** The filters of `audit list`; the page size and cursor rules are the audit service's, which the tool shares. */
export class AuditEventsQueryDto extends PageQueryDto {
  @ApiProperty({ ...ID, required: false, description: 'Only the events of this client.' })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt({ message: 'clientId must be a single integer' })
  clientId?: number;

  @ApiProperty({
    required: false,
    type: 'string',
    maxLength: 50,
    pattern: AUDIT_ACTION_PATTERN,
    description: 'Only the events of this action (an `AuditAction`).',
  })
  @IsOptional()
  @MaxLength(50)
  @IsString({ message: 'action must be given once' })
  action?: string;
}
