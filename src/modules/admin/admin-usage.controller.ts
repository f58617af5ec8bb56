import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses } from '../../common/index.js';
import { UsageDto, UsageQueryDto, UsageService } from '../usage/index.js';
import { EVERY_ADMIN_OPERATION_ERRORS } from './admin-errors.js';
import { CLIENTS_TAG } from './admin-clients.controller.js';
import { ClientNotFoundException } from './admin.exceptions.js';
import { ClientIdParams } from './dto/client-id.params.js';
import { PlanErrorsInterceptor } from './plan-errors.interceptor.js';

/** The `usage` command of the command-line tool, over HTTP, on the same service method as `GET /v1/usage`. */
@ApiTags(CLIENTS_TAG)
@UseInterceptors(PlanErrorsInterceptor)
@Controller('admin/v1/clients/:clientId/usage')
export class AdminUsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({
    summary: "A client's usage",
    description:
      'Per UTC day and key, the requests admitted and those refused with 429 (at most 93 days; the last 30 by default). As `usage --client`.',
  })
  @ApiOkResponse({ description: 'The period, its days and keys, and the totals.', type: UsageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundException)
  getClientUsage(@Param() { clientId }: ClientIdParams, @Query() period: UsageQueryDto): Promise<UsageDto> {
    return this.usage.forClient(clientId, period);
  }
}
