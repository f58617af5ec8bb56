import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/index.js';
import { AuditService, type AuditPage } from '../audit/index.js';
import { EVERY_ADMIN_OPERATION_ERRORS } from './admin.exceptions.js';
import { AuditEventPageDto, AuditEventsQueryDto } from './admin.dto.js';

export const AUDIT_TAG = 'audit';

/** The `audit list` command of the command-line tool, over HTTP, on the same service method. */
@ApiTags(AUDIT_TAG)
@Controller('admin/v1/audit-events')
export class AdminAuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'List audit events',
    description: 'Every change to clients, plans, keys and admin tokens, newest first, filtered by client and action. As `audit list`.',
  })
  @ApiOkResponse({ description: 'A page of events.', type: AuditEventPageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS)
  listAuditEvents(@Query() query: AuditEventsQueryDto): Promise<AuditPage> {
    return this.audit.list(query);
  }
}
