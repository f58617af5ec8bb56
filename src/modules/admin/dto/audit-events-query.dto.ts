import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../../common/index.js';
import { AUDIT_ACTIONS, type AuditAction } from '../../audit/index.js';
import { PageQueryDto } from './page-query.dto.js';
import { ID } from './schema-fields.js';

/** The filters of `audit list`; the page size and cursor rules are the audit service's, which the tool shares. */
export class AuditEventsQueryDto extends PageQueryDto {
  @ApiProperty({ ...ID, required: false, description: 'Only the events of this client.' })
  @IsOptional()
  @ToInteger()
  @Min(1)
  @IsInt({ message: 'clientId must be a single integer' })
  clientId?: number;

  @ApiProperty({ required: false, enum: AUDIT_ACTIONS, enumName: 'AuditAction', description: 'Only the events of this action.' })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  @MaxLength(50)
  @IsString({ message: 'action must be given once' })
  action?: AuditAction;
}
