import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiredScope } from '../auth/index.js';
import { ApiErrorResponses, Caller, type Principal } from '../../common/index.js';
import { V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import { UsageDto, UsageQueryDto } from './dto/usage.dto.js';
import { USAGE_TAG } from './usage.openapi.js';
import { UsageService } from './usage.service.js';

@ApiTags(USAGE_TAG)
@Controller('usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @RequiredScope('keys:manage')
  @ApiOperation({
    summary: "The client's usage",
    description:
      'Per UTC day and key, the requests the quota admitted and those it refused with 429, from `from` to `to` (at most 93 days; the last 30 by default). A request shows here a few seconds after its answer (10 at most by default).',
  })
  @ApiOkResponse({ description: 'The period, its days and keys, and the totals.', type: UsageDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  getUsage(@Caller() caller: Principal, @Query() query: UsageQueryDto): Promise<UsageDto> {
    return this.usage.forClient(caller.clientId, query);
  }
}
